//! Agent skills a server ships (the Skills extension, SEP-2640, `io.modelcontextprotocol/skills`):
//! each a folder with a `SKILL.md` and its files, listed by `skills/list`, described by
//! `skills/get` and read file by file as `skill://` resources.
//!
//! [`skills!`](crate::skills!) embeds a folder of skills at compile time, its frontmatter checked
//! there; a skill can also be built by hand with [`SkillDef::new`]. `build()` checks both the
//! same way (`docs/wire.md`, "Skills").

/// The extension's identifier, under which the server declares it in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// One file of a skill: its path inside the skill's folder (`SKILL.md`, `examples/email.md`),
/// its bytes and its MIME type.
///
/// ```
/// use beam_mcp::skill::SkillFile;
/// const GUIDE: SkillFile = SkillFile::new("SKILL.md", b"---\nname: packing\n---\n", "text/markdown");
/// assert_eq!(GUIDE.path, "SKILL.md");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillFile {
    /// Its path inside the skill's folder, with `/`.
    pub path: &'static str,
    /// Its bytes, served as they are (their SHA-256 is the manifest's digest).
    pub bytes: &'static [u8],
    /// Its MIME type (`text/markdown` for `SKILL.md`).
    pub mime_type: &'static str,
}

impl SkillFile {
    /// The file at `path` in the skill's folder.
    ///
    /// ```
    /// let f = beam_mcp::skill::SkillFile::new("notes.txt", b"hi", "text/plain");
    /// assert_eq!(f.bytes, b"hi");
    /// ```
    pub const fn new(path: &'static str, bytes: &'static [u8], mime_type: &'static str) -> Self {
        SkillFile {
            path,
            bytes,
            mime_type,
        }
    }
}

/// One skill: where it is served (`skill://<path>/SKILL.md`, whose last segment is its name),
/// its `SKILL.md` frontmatter as a JSON object (every field, verbatim), and every file of its
/// folder, `SKILL.md` among them.
///
/// ```
/// use beam_mcp::skill::{SkillDef, SkillFile};
///
/// const PACKING: SkillDef = SkillDef::new(
///     "weather/packing",
///     r#"{"name":"packing","description":"What to pack for the weather at a destination."}"#,
///     &[SkillFile::new(
///         "SKILL.md",
///         b"---\nname: packing\ndescription: What to pack for the weather at a destination.\n---\nCheck the forecast first.\n",
///         "text/markdown",
///     )],
/// );
/// assert_eq!(PACKING.uri(), "skill://weather/packing/SKILL.md");
/// let server = beam_mcp::Server::builder().skills(&[PACKING]).build().unwrap();
/// # let _ = server;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillDef {
    /// The skill's path: one or more `/`-separated segments, the last its name.
    pub path: &'static str,
    /// The frontmatter of its `SKILL.md` as a JSON object (`name` and `description` strings,
    /// every other field as written).
    pub frontmatter: &'static str,
    /// Every file of its folder, `SKILL.md` among them.
    pub files: &'static [SkillFile],
}

impl SkillDef {
    /// The skill at `path` with `frontmatter` (a JSON object) and `files`.
    ///
    /// ```
    /// let skill = beam_mcp::skill::SkillDef::new("a", r#"{"name":"a","description":"A."}"#, &[]);
    /// assert_eq!(skill.name(), "a");
    /// ```
    pub const fn new(
        path: &'static str,
        frontmatter: &'static str,
        files: &'static [SkillFile],
    ) -> Self {
        SkillDef {
            path,
            frontmatter,
            files,
        }
    }

    /// Its name: the last segment of its path.
    ///
    /// ```
    /// let skill = beam_mcp::skill::SkillDef::new("acme/billing", "{}", &[]);
    /// assert_eq!(skill.name(), "billing");
    /// ```
    pub fn name(&self) -> &'static str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }

    /// The URI of its `SKILL.md`: `skill://<path>/SKILL.md`.
    ///
    /// ```
    /// let skill = beam_mcp::skill::SkillDef::new("git-workflow", "{}", &[]);
    /// assert_eq!(skill.uri(), "skill://git-workflow/SKILL.md");
    /// ```
    pub fn uri(&self) -> String {
        format!("skill://{}/SKILL.md", self.path)
    }
}
