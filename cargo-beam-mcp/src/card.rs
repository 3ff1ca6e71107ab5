//! `card TARGET`: the Server Card (SEP-2127 draft, schema v2) of a running server, made from
//! what it says of itself at each revision it speaks and its catalog export's digest at each:
//! canonical JSON on stdout, its SHA-256 on stderr.

use std::io::Write as _;
use std::process::ExitCode;

use beam_mcp::ServerCard;
use serde_json::Value;

use crate::target::{Connect, Target};

/// What `card` was asked.
pub(crate) struct Options {
    pub(crate) connect: Connect,
    pub(crate) name: Option<String>,
    pub(crate) url: Option<String>,
    pub(crate) description: Option<String>,
}

pub(crate) async fn run(options: Options) -> Result<ExitCode, String> {
    let clients = crate::target::each_revision(&options.connect).await?;
    let mut info = clients[0].server_info().clone();
    if let Some(description) = &options.description
        && let Some(map) = info.as_object_mut()
    {
        map.insert("description".into(), Value::from(description.as_str()));
    }
    let mut exports = Vec::new();
    for client in &clients {
        exports.push(
            client
                .advertised()
                .await
                .map_err(|e| format!("listing at {}: {e}", client.revision()))?,
        );
    }
    let url = options
        .url
        .clone()
        .or_else(|| match &options.connect.target {
            Target::Url(url) => Some(url.clone()),
            Target::Command(_) => None,
        });
    let name = match &options.name {
        Some(name) => name.clone(),
        None => derived_name(url.as_deref(), &info).ok_or(
            "--name NAMESPACE/NAME: no URL with a host name to derive one from (com.example/weather)",
        )?,
    };
    let card =
        ServerCard::from_info(&name, &info, url.as_deref(), &exports).map_err(|e| match e {
            // A server this command reads may be anyone's: the description can be given here.
            beam_mcp::ServerCardError::Description(_) => {
                format!("{e}, or give one here: --description TEXT")
            }
            e => e.to_string(),
        })?;
    let mut out = std::io::stdout().lock();
    out.write_all(card.bytes())
        .and_then(|()| out.write_all(b"\n"))
        .map_err(|e| format!("stdout: {e}"))?;
    eprintln!("sha256 {}", card.digest_hex());
    Ok(ExitCode::SUCCESS)
}

/// `https://mcp.example.com/mcp` and a server named `weather` → `com.example.mcp/weather`:
/// the host reversed, as the draft's examples name servers.
fn derived_name(url: Option<&str>, info: &Value) -> Option<String> {
    let rest = url?.split_once("://")?.1;
    let host = rest.split(['/', ':']).next()?;
    if host.is_empty()
        || host.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || host.starts_with('[')
    {
        return None;
    }
    let namespace: Vec<&str> = host.split('.').rev().collect();
    let server: String = info
        .get("name")?
        .as_str()?
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    Some(format!("{}/{server}", namespace.join(".")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_name_is_derived_from_the_host_reversed() {
        let info = json!({ "name": "my weather" });
        assert_eq!(
            derived_name(Some("https://mcp.example.com:8443/mcp"), &info).as_deref(),
            Some("com.example.mcp/my-weather")
        );
        assert_eq!(derived_name(Some("http://127.0.0.1:9/mcp"), &info), None);
        assert_eq!(derived_name(None, &info), None);
    }
}
