//! The typed results of the test client, read from the wire form.

use serde_json::{Value, json};

/// A tool as `tools/list` advertises it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ListedTool {
    /// Its name.
    pub name: String,
    /// Its display name, when it has one.
    pub title: Option<String>,
    /// What it does.
    pub description: Option<String>,
    /// The input schema.
    pub input_schema: Value,
    /// The output schema of a structured tool.
    pub output_schema: Option<Value>,
    /// The hint annotations, when there are any.
    pub annotations: Option<Value>,
}

impl ListedTool {
    pub(crate) fn read(value: Value) -> Result<Self, String> {
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        Ok(ListedTool {
            name: text("name").ok_or("a tool without a name")?,
            title: text("title"),
            description: text("description"),
            input_schema: value
                .get("inputSchema")
                .cloned()
                .ok_or("a tool without an inputSchema")?,
            output_schema: value.get("outputSchema").cloned(),
            annotations: value.get("annotations").cloned(),
        })
    }
}

/// What a `tools/call` answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolOutcome {
    /// The content blocks, as the server wrote them.
    pub content: Vec<Value>,
    /// `structuredContent`, for a structured tool.
    pub structured: Option<Value>,
    /// True when the tool failed (`isError`).
    pub is_error: bool,
}

impl ToolOutcome {
    pub(crate) fn read(value: Value) -> Result<Self, String> {
        let content = match value.get("content") {
            Some(Value::Array(blocks)) => blocks.clone(),
            _ => return Err("a result without a content array".into()),
        };
        Ok(ToolOutcome {
            content,
            structured: value.get("structuredContent").cloned(),
            is_error: value
                .get("isError")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })
    }

    /// The text of every text block, joined with newlines.
    pub fn text(&self) -> String {
        text_of(&self.content)
    }

    /// The structured content as `T`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, PartialEq, Debug)]
    /// struct Sum {
    ///     total: i64,
    /// }
    ///
    /// /// Adds.
    /// #[beam_mcp::tool]
    /// fn add(a: i64, b: i64) -> Sum {
    ///     Sum { total: a + b }
    /// }
    ///
    /// let server = beam_mcp::Server::builder().tool(add::DEF).build().unwrap();
    /// let mut client = beam_mcp::testing::TestClient::new(server);
    /// let out = client.call_tool("add", serde_json::json!({ "a": 2, "b": 3 })).await.unwrap();
    /// assert_eq!(out.structured_as::<Sum>().unwrap(), Sum { total: 5 });
    /// # }
    /// ```
    pub fn structured_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        let value = self.structured.clone().unwrap_or(Value::Null);
        serde_json::from_value(value)
    }
}

/// What a `prompts/get` answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PromptOutcome {
    /// The prompt's description, when the server gave one.
    pub description: Option<String>,
    /// The messages, in order, as `(role, content)` with the content as the server wrote it.
    pub messages: Vec<(String, Value)>,
}

impl PromptOutcome {
    pub(crate) fn read(value: Value) -> Result<Self, String> {
        let Some(Value::Array(messages)) = value.get("messages") else {
            return Err("a prompt without a messages array".into());
        };
        let messages = messages
            .iter()
            .map(|m| {
                let role = m
                    .get("role")
                    .and_then(Value::as_str)
                    .ok_or("a message without a role")?;
                let content = m
                    .get("content")
                    .cloned()
                    .ok_or("a message without content")?;
                Ok((role.to_owned(), content))
            })
            .collect::<Result<_, &str>>()?;
        Ok(PromptOutcome {
            description: value
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            messages,
        })
    }

    /// The text of every text message, joined with newlines.
    pub fn text(&self) -> String {
        let contents: Vec<Value> = self.messages.iter().map(|(_, c)| c.clone()).collect();
        text_of(&contents)
    }
}

/// What a `completion/complete` answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Completed {
    /// The suggested values, best first.
    pub values: Vec<String>,
    /// How many there are in all, when the server said.
    pub total: Option<u64>,
    /// True when there are more than `values`.
    pub has_more: bool,
}

impl Completed {
    pub(crate) fn read(value: Value) -> Result<Self, String> {
        let completion = value.get("completion").ok_or("no completion object")?;
        let Some(Value::Array(values)) = completion.get("values") else {
            return Err("a completion without values".into());
        };
        Ok(Completed {
            values: values
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_owned)
                        .ok_or("a value that is not a string")
                })
                .collect::<Result<_, _>>()?,
            total: completion.get("total").and_then(Value::as_u64),
            has_more: completion
                .get("hasMore")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })
    }
}

/// Something the server sent that was not an answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Heard {
    /// `notifications/progress`.
    Progress {
        /// How far along.
        progress: f64,
        /// Out of how much, when known.
        total: Option<f64>,
        /// What it is doing.
        message: Option<String>,
    },
    /// `notifications/message`: a log entry.
    Log {
        /// Its level (`info`, `warning`, ...).
        level: String,
        /// The logger's name, when given.
        logger: Option<String>,
        /// What was logged.
        data: Value,
    },
    /// Any other notification, whole.
    Other(Value),
}

impl Heard {
    pub(crate) fn read(note: Value) -> Self {
        let params = note.get("params");
        let field = |key: &str| params.and_then(|p| p.get(key));
        match note.get("method").and_then(Value::as_str) {
            Some("notifications/progress") => match field("progress").and_then(Value::as_f64) {
                Some(progress) => Heard::Progress {
                    progress,
                    total: field("total").and_then(Value::as_f64),
                    message: field("message").and_then(Value::as_str).map(str::to_owned),
                },
                None => Heard::Other(note),
            },
            Some("notifications/message") => match field("level").and_then(Value::as_str) {
                Some(level) => Heard::Log {
                    level: level.to_owned(),
                    logger: field("logger").and_then(Value::as_str).map(str::to_owned),
                    data: field("data").cloned().unwrap_or(Value::Null),
                },
                None => Heard::Other(note),
            },
            _ => Heard::Other(note),
        }
    }
}

fn text_of(contents: &[Value]) -> String {
    contents
        .iter()
        .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A JSON-RPC error object's code, message and `data`, as sent (code 0 and an empty message
/// where they are missing).
pub(crate) fn error_parts(error: &Value) -> (i64, String, Option<Value>) {
    (
        error.get("code").and_then(Value::as_i64).unwrap_or(0),
        error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        error.get("data").cloned(),
    )
}

/// Every item of a paged list: `page` asks for one page with its params (the cursor, after
/// the first) and answers its result; `shape` names a result without the `key` array.
pub(crate) async fn every_page<E>(
    key: &str,
    mut page: impl AsyncFnMut(Value) -> Result<Value, E>,
    shape: impl Fn(String) -> E,
) -> Result<Vec<Value>, E> {
    let mut items = Vec::new();
    let mut cursor: Option<Value> = None;
    loop {
        let params = match cursor.take() {
            Some(cursor) => json!({ "cursor": cursor }),
            None => json!({}),
        };
        let mut result = page(params).await?;
        match result.get_mut(key).map(Value::take) {
            Some(Value::Array(page_items)) => items.extend(page_items),
            _ => return Err(shape(format!("no {key} array"))),
        }
        match result.get("nextCursor") {
            Some(next @ Value::String(_)) => cursor = Some(next.clone()),
            _ => return Ok(items),
        }
    }
}
