use std::sync::Arc;

#[derive(Clone)]
pub struct Notes {
    names: Arc<Vec<String>>,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Found {
    names: Vec<String>,
}

#[beam_mcp::items]
impl Notes {
    /// Finds notes by prefix.
    #[beam_mcp::tool(read_only)]
    pub fn find(
        &self,
        /// The prefix.
        prefix: String,
        limit: Option<usize>,
    ) -> Found {
        let names = self.names.iter().filter(|n| n.starts_with(&prefix));
        Found { names: names.take(limit.unwrap_or(10)).cloned().collect() }
    }

    /// Counts notes, later.
    #[tool]
    pub async fn count(&self, context: beam_mcp::Context) -> String {
        let _ = context.log(beam_mcp::LogLevel::Info, "counting");
        self.names.len().to_string()
    }

    /// A note by name.
    #[resource("notes://{name}")]
    pub fn note(&self, name: String) -> Result<String, beam_mcp::resource::NotFound> {
        self.names
            .iter()
            .find(|n| **n == name)
            .cloned()
            .ok_or(beam_mcp::resource::NotFound)
    }

    /// Reviews a note.
    #[prompt]
    pub fn review(&self, name: String) -> String {
        format!("Review {name} of {}", self.names.len())
    }

    fn helper(&self) -> usize {
        self.names.len()
    }
}

fn main() {
    let notes = Notes { names: Arc::new(vec!["a".into()]) };
    assert_eq!(notes.helper(), 1);
    let server = beam_mcp::Server::builder()
        .tools(Notes::TOOLS)
        .resources(Notes::RESOURCES)
        .prompts(Notes::PROMPTS)
        .state(notes)
        .build()
        .unwrap();
    let _ = server;
    let _ = (Notes::FIND_TOOL, Notes::COUNT_TOOL, Notes::NOTE_RESOURCE, Notes::REVIEW_PROMPT);
}
