//! A file holding exact bytes that a host's test compares with what the code makes now (the
//! canonical catalog export, the Server Card), or writes with `BEAM_MCP_PIN=overwrite`.

use std::path::Path;

/// The environment variable that makes [`Advertised::check_pinned`](crate::Advertised::check_pinned)
/// (and [`ServerCard::check_pinned`](crate::ServerCard::check_pinned)) write the file instead of
/// comparing: `BEAM_MCP_PIN=overwrite`.
pub const PIN_ENV: &str = "BEAM_MCP_PIN";

/// How the bytes at a pin's path compare with the bytes now.
pub(crate) enum Pinned {
    /// The same bytes, or none to compare: `BEAM_MCP_PIN=overwrite` wrote them.
    Same,
    /// No file there.
    Missing,
    /// The file's bytes, which differ.
    Differs(Vec<u8>),
}

/// Compares `bytes` with the file at `path`; with `BEAM_MCP_PIN=overwrite` in the environment,
/// writes them there instead.
pub(crate) fn compare(path: &Path, bytes: &[u8]) -> std::io::Result<Pinned> {
    if std::env::var(PIN_ENV).is_ok_and(|v| v == "overwrite") {
        write(path, bytes)?;
        return Ok(Pinned::Same);
    }
    match std::fs::read(path) {
        Ok(pinned) if pinned == bytes => Ok(Pinned::Same),
        Ok(pinned) => Ok(Pinned::Differs(pinned)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Pinned::Missing),
        Err(e) => Err(e),
    }
}

/// Writes `bytes` to `path`, creating its folder.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, bytes)
}
