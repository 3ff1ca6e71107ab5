//! Tasks (the `io.modelcontextprotocol/tasks` extension, 2026-07-28), from the client's side:
//! a tool call the server answers with a task is followed to its end (`tasks/get` at the
//! server's poll interval, its asks answered by the host's handlers through `tasks/update`),
//! and a follow that is dropped cancels the task (`tasks/cancel`). The host may also start a
//! call as a task and drive it itself ([`Client::start_tool`]).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::connection::Connection;
use super::{Client, ClientError, ToolOutcome, shape};

/// The extension's key in `clientCapabilities.extensions` and `capabilities.extensions`.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The shortest and longest wait between two polls of a task, whatever the server suggests.
const POLL_BOUNDS: (Duration, Duration) = (Duration::from_millis(10), Duration::from_secs(5));

/// Where a task stands (`status`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskStatus {
    /// The server works on it.
    Working,
    /// It waits for answers to its asks (`inputRequests`).
    InputRequired,
    /// It ended with a result (`result`, which may be the tool's own error).
    Completed,
    /// It ended with an error (`error`).
    Failed,
    /// It was cancelled.
    Cancelled,
    /// A status this client does not know, as the server wrote it.
    Other(String),
}

impl TaskStatus {
    fn read(status: &str) -> TaskStatus {
        match status {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            other => TaskStatus::Other(other.to_owned()),
        }
    }

    /// Whether the task has ended (completed, failed or cancelled).
    ///
    /// ```
    /// use beam_mcp::client::TaskStatus;
    /// assert!(TaskStatus::Cancelled.is_terminal());
    /// assert!(!TaskStatus::InputRequired.is_terminal());
    /// ```
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// A task as the server last described it (`CreateTaskResult` or `tasks/get`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Task {
    /// Its id.
    pub id: String,
    /// Where it stands.
    pub status: TaskStatus,
    /// How long the server suggests waiting before asking again.
    pub poll_interval: Option<Duration>,
    /// The server's whole answer: `result`, `error`, `inputRequests`, timestamps, `ttlMs`.
    pub raw: Value,
}

impl Task {
    fn read(method: &str, value: Value) -> Result<Task, ClientError> {
        let id = value
            .get("taskId")
            .and_then(Value::as_str)
            .ok_or_else(|| shape(method, "a task without a taskId".into()))?
            .to_owned();
        let status = value
            .get("status")
            .and_then(Value::as_str)
            .map(TaskStatus::read)
            .ok_or_else(|| shape(method, "a task without a status".into()))?;
        let poll_interval = value
            .get("pollIntervalMs")
            .and_then(Value::as_u64)
            .map(Duration::from_millis);
        Ok(Task {
            id,
            status,
            poll_interval,
            raw: value,
        })
    }

    /// The ended task's result: the tool's outcome (completed), its error as
    /// [`ClientError::Protocol`] (failed), or [`ClientError::Cancelled`]; `None` while it
    /// runs.
    pub fn outcome(&self) -> Option<Result<ToolOutcome, ClientError>> {
        match self.status {
            TaskStatus::Completed => Some(
                ToolOutcome::read(self.raw.get("result").cloned().unwrap_or(Value::Null))
                    .map_err(|d| shape("tasks/get", d)),
            ),
            TaskStatus::Failed => {
                let error = self.raw.get("error").cloned().unwrap_or(Value::Null);
                let (code, message, data) = crate::testing::error_parts(&error);
                Some(Err(ClientError::Protocol {
                    code,
                    message,
                    data,
                }))
            }
            TaskStatus::Cancelled => Some(Err(ClientError::Cancelled {
                task: self.id.clone(),
            })),
            _ => None,
        }
    }
}

/// What [`Client::start_tool`] got: a result at once, or a task to follow (the extension has
/// no third way, so a `match` needs no catch-all).
#[derive(Debug, Clone, PartialEq)]
pub enum Started {
    /// The call ended at once.
    Done(ToolOutcome),
    /// The call became a task.
    Task(Task),
}

impl Client {
    /// Calls a tool and returns as soon as the server answers: its result, or the task it
    /// became (the client must declare the extension: [`ClientBuilder::tasks`](super::ClientBuilder::tasks)).
    /// The host then follows it with [`get_task`](Self::get_task), [`update_task`](Self::update_task),
    /// [`cancel_task`](Self::cancel_task) or [`wait_task`](Self::wait_task).
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// use beam_mcp::client::Started;
    /// match client.start_tool("slow_compute", serde_json::json!({ "seconds": 5 })).await? {
    ///     Started::Done(outcome) => println!("{}", outcome.text()),
    ///     Started::Task(task) => client.cancel_task(&task.id).await?,
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn start_tool(&self, name: &str, arguments: Value) -> Result<Started, ClientError> {
        self.learn_tool_params(name).await;
        let params = json!({ "name": name, "arguments": arguments });
        let result = self.with_input("tools/call", params, None).await?;
        if is_task(&result) {
            return Task::read("tools/call", result).map(Started::Task);
        }
        ToolOutcome::read(result)
            .map(Started::Done)
            .map_err(|d| shape("tools/call", d))
    }

    /// The task `id` as the server describes it now (`tasks/get`).
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let task = client.get_task("0b1c").await?;
    /// println!("{:?}", task.status);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn get_task(&self, id: &str) -> Result<Task, ClientError> {
        let result = self.request("tasks/get", json!({ "taskId": id })).await?;
        Task::read("tasks/get", result)
    }

    /// Answers a task's asks by key (`tasks/update`).
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let mut answers = serde_json::Map::new();
    /// answers.insert("confirm".into(), serde_json::json!({ "action": "accept", "content": { "confirm": true } }));
    /// client.update_task("0b1c", answers).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn update_task(
        &self,
        id: &str,
        responses: Map<String, Value>,
    ) -> Result<(), ClientError> {
        let params = json!({ "taskId": id, "inputResponses": responses });
        self.request("tasks/update", params).await.map(drop)
    }

    /// Cancels the task `id` (`tasks/cancel`); an ended task is left as it was.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// client.cancel_task("0b1c").await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn cancel_task(&self, id: &str) -> Result<(), ClientError> {
        self.request("tasks/cancel", json!({ "taskId": id }))
            .await
            .map(drop)
    }

    /// Follows `task` to its end: polls it at the server's interval (10 ms to 5 s), answers
    /// its asks with the host's handlers, and returns its outcome. Dropping the future cancels
    /// the task on the server.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// use beam_mcp::client::Started;
    /// if let Started::Task(task) = client.start_tool("slow_compute", serde_json::json!({ "seconds": 1 })).await? {
    ///     let outcome = client.wait_task(task).await?;
    ///     println!("{}", outcome.text());
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn wait_task(&self, task: Task) -> Result<ToolOutcome, ClientError> {
        let mut guard = CancelOnDrop {
            connection: Arc::clone(&self.connection),
            params: self.with_meta(json!({ "taskId": task.id })),
            timeout: self.timeout,
            armed: true,
        };
        let mut task = task;
        let mut answered: Vec<String> = Vec::new();
        loop {
            if let Some(outcome) = task.outcome() {
                guard.armed = false;
                return outcome;
            }
            if task.status == TaskStatus::InputRequired {
                let responses = self.answer_asks(&task, &mut answered).await?;
                if !responses.is_empty() {
                    self.update_task(&task.id, responses).await?;
                }
            }
            let wait = task
                .poll_interval
                .unwrap_or(Duration::from_millis(100))
                .clamp(POLL_BOUNDS.0, POLL_BOUNDS.1);
            tokio::time::sleep(wait).await;
            task = self.get_task(&task.id).await?;
        }
    }

    /// The answers to the asks of `task` not answered yet (by key), from the host's handlers.
    async fn answer_asks(
        &self,
        task: &Task,
        answered: &mut Vec<String>,
    ) -> Result<Map<String, Value>, ClientError> {
        let mut responses = Map::new();
        let asks = task.raw.get("inputRequests").and_then(Value::as_object);
        for (key, ask) in asks.into_iter().flatten() {
            if answered.contains(key) {
                continue;
            }
            let method = ask
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let params = ask.get("params").cloned().unwrap_or_else(|| json!({}));
            let answer = self
                .handlers
                .answer(method, params)
                .await
                .map_err(|(_, why)| ClientError::InputRequired {
                    method: "tasks/update".to_owned(),
                    what: why,
                })?;
            answered.push(key.clone());
            responses.insert(key.clone(), answer);
        }
        Ok(responses)
    }

    /// A `tools/call` result that is a task, followed to its end when the client declared the
    /// extension.
    pub(super) async fn finish_call(&self, result: Value) -> Result<ToolOutcome, ClientError> {
        if self.handlers.tasks && is_task(&result) {
            let task = Task::read("tools/call", result)?;
            return self.wait_task(task).await;
        }
        ToolOutcome::read(result).map_err(|d| shape("tools/call", d))
    }
}

/// Whether a `tools/call` result is a `CreateTaskResult`.
fn is_task(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("task")
}

/// Cancels a followed task whose follower was dropped.
struct CancelOnDrop {
    connection: Arc<Connection>,
    params: Value,
    timeout: Duration,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let (connection, params, timeout) = (
            Arc::clone(&self.connection),
            self.params.take(),
            self.timeout,
        );
        // Without a runtime (it is shutting down) the task ends by its lifetime on the server.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = connection
                    .request("tasks/cancel", params, None, timeout)
                    .await;
            });
        }
    }
}
