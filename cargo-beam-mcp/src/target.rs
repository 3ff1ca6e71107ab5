//! A TARGET: the server a subcommand speaks to, and the client connected to it.

use beam_mcp::client::{Client, ClientBuilder};
use beam_mcp::protocol::Revision;

/// How to reach a server.
pub(crate) struct Connect {
    pub(crate) target: Target,
    pub(crate) revision: Option<Revision>,
    pub(crate) headers: Vec<(String, String)>,
}

/// Where a server is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// A Streamable HTTP endpoint.
    Url(String),
    /// A program serving MCP over its stdin and stdout, and its arguments.
    Command(Vec<String>),
}

impl Target {
    /// An `http://`/`https://` URL, or a command line split as a shell splits words (quotes
    /// and backslashes; no variables, no globbing).
    pub(crate) fn parse(text: &str) -> Result<Target, String> {
        if text.starts_with("http://") || text.starts_with("https://") {
            return Ok(Target::Url(text.to_owned()));
        }
        let words = shell_words(text)?;
        if words.is_empty() {
            return Err("an empty TARGET".into());
        }
        Ok(Target::Command(words))
    }
}

/// Splits a command line into words: whitespace separates, `'..'` keeps everything, `".."`
/// keeps everything but `\"` and `\\`, a backslash outside quotes keeps the next character.
pub(crate) fn shell_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("an unclosed ' in {text:?}")),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("an unclosed \" in {text:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("an unclosed \" in {text:?}")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(format!("a trailing backslash in {text:?}")),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Connects `builder` to the target, at the revision asked (or negotiated).
pub(crate) async fn connect(connect: &Connect, builder: ClientBuilder) -> Result<Client, String> {
    let builder = match connect.revision {
        Some(revision) => builder.revision(revision),
        None => builder,
    };
    let builder = builder.client_info("cargo-beam-mcp", env!("CARGO_PKG_VERSION"));
    let connected = match &connect.target {
        Target::Url(url) => builder.http(url, connect.headers.clone()).await,
        Target::Command(command) => {
            if !connect.headers.is_empty() {
                return Err("--header is for an http:// or https:// TARGET".into());
            }
            let mut process = tokio::process::Command::new(&command[0]);
            process.args(&command[1..]);
            builder.stdio(process).await
        }
    };
    connected.map_err(|e| format!("{}: {e}", connect.target))
}

/// A client at each revision the server speaks (2026-07-28 first), or why none.
pub(crate) async fn each_revision(connect: &Connect) -> Result<Vec<Client>, String> {
    let mut clients = Vec::new();
    let mut refusals = Vec::new();
    let revisions = match connect.revision {
        Some(revision) => vec![revision],
        None => vec![Revision::V2026_07_28, Revision::V2025_11_25],
    };
    for revision in revisions {
        let at = Connect {
            target: connect.target.clone(),
            revision: Some(revision),
            headers: connect.headers.clone(),
        };
        match self::connect(&at, Client::builder()).await {
            Ok(client) => clients.push(client),
            Err(e) => refusals.push(format!("at {revision}: {e}")),
        }
    }
    if clients.is_empty() {
        return Err(refusals.join("; "));
    }
    Ok(clients)
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Url(url) => f.write_str(url),
            Target::Command(command) => f.write_str(&command.join(" ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_is_split_as_a_shell_splits_words() {
        assert_eq!(
            shell_words(r#"python3 "my server.py" --name 'a b' x\ y "q\"t""#).unwrap(),
            ["python3", "my server.py", "--name", "a b", "x y", "q\"t"]
        );
        assert_eq!(shell_words("  ''  ").unwrap(), [""]);
        assert!(shell_words("a 'b").unwrap_err().contains("unclosed '"));
        assert!(shell_words("a \"b").unwrap_err().contains("unclosed \""));
        assert_eq!(
            Target::parse("https://h/mcp").unwrap(),
            Target::Url("https://h/mcp".into())
        );
        assert!(Target::parse("   ").is_err());
    }
}
