//! The RFC 6570 subset beam-mcp serves: `{name}` is one non-empty path segment, `{+name}` is
//! any non-empty text, everything else is literal, and a match covers the whole URI.

use std::fmt;

/// One piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Text matched exactly.
    Literal(String),
    /// `{name}` (one segment, no `/`) or `{+name}` (`reserved`: may cross segments).
    Variable {
        /// The variable's name.
        name: String,
        /// True for `{+name}`.
        reserved: bool,
    },
}

/// Why a template was refused. Every message says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TemplateError {
    /// An expression other than `{name}` or `{+name}` (operators, modifiers, lists).
    Unsupported(String),
    /// A `{` without its `}`, or a `}` outside an expression.
    BareBrace,
    /// `{}` or `{+}`.
    EmptyName,
    /// A variable named twice.
    RepeatedVariable(String),
    /// Two variables with no literal text between them, which no match could split.
    AdjacentVariables(String, String),
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported(expr) => write!(
                f,
                "the expression {expr} is outside the supported subset: only {{name}} (one path segment) and {{+name}} (any text) are matched"
            ),
            Self::BareBrace => f.write_str(
                "a brace outside an expression: write a variable as {name} or {+name}; a literal brace cannot appear in a template",
            ),
            Self::EmptyName => f.write_str("an expression without a variable name: write {name}"),
            Self::RepeatedVariable(name) => {
                write!(f, "the variable {name} appears twice: name each variable once")
            }
            Self::AdjacentVariables(a, b) => write!(
                f,
                "the variables {a} and {b} touch, so no URI could be split between them: put literal text (such as /) between them"
            ),
        }
    }
}

impl std::error::Error for TemplateError {}

/// A parsed URI template of the supported subset (a static URI is a template without
/// variables).
///
/// ```
/// use beam_mcp_rules::UriTemplate;
/// let t = UriTemplate::parse("notes://{folder}/{+rest}").unwrap();
/// let bound = t.matches("notes://work/a/b.txt").unwrap();
/// assert_eq!(bound, [("folder", "work"), ("rest", "a/b.txt")]);
/// assert!(t.matches("notes://work/").is_none());
/// assert!(UriTemplate::parse("notes://{?q}").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    parts: Vec<Part>,
}

impl UriTemplate {
    /// Parses `source`, refusing anything outside the subset.
    pub fn parse(source: &str) -> Result<Self, TemplateError> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = source;
        while let Some(c) = rest.chars().next() {
            match c {
                '}' => return Err(TemplateError::BareBrace),
                '{' => {
                    let end = rest.find('}').ok_or(TemplateError::BareBrace)?;
                    let body = &rest[1..end];
                    if body.contains('{') {
                        return Err(TemplateError::BareBrace);
                    }
                    let (reserved, name) = match body.strip_prefix('+') {
                        Some(name) => (true, name),
                        None => (false, body),
                    };
                    if name.is_empty() {
                        return Err(TemplateError::EmptyName);
                    }
                    if !valid_varname(name) {
                        return Err(TemplateError::Unsupported(format!("{{{body}}}")));
                    }
                    if let Some(Part::Variable { name: previous, .. }) = parts.last()
                        && literal.is_empty()
                    {
                        return Err(TemplateError::AdjacentVariables(
                            previous.clone(),
                            name.to_owned(),
                        ));
                    }
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    if parts
                        .iter()
                        .any(|p| matches!(p, Part::Variable { name: n, .. } if n == name))
                    {
                        return Err(TemplateError::RepeatedVariable(name.to_owned()));
                    }
                    parts.push(Part::Variable {
                        name: name.to_owned(),
                        reserved,
                    });
                    rest = &rest[end + 1..];
                    continue;
                }
                other => literal.push(other),
            }
            rest = &rest[c.len_utf8()..];
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        Ok(UriTemplate { parts })
    }

    /// The pieces, in order.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The variable names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// True when the template has no variables: it names one resource.
    pub fn is_static(&self) -> bool {
        self.variables().next().is_none()
    }

    /// The literal text, with every variable written as `{…}`: two templates with one shape
    /// match the same URIs, whatever their variables are called.
    ///
    /// ```
    /// use beam_mcp_rules::UriTemplate;
    /// let a = UriTemplate::parse("db://{table}/{+key}").unwrap();
    /// let b = UriTemplate::parse("db://{t}/{+k}").unwrap();
    /// assert_eq!(a.shape(), b.shape());
    /// ```
    pub fn shape(&self) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Literal(text) => text.as_str(),
                Part::Variable {
                    reserved: false, ..
                } => "{}",
                Part::Variable { reserved: true, .. } => "{+}",
            })
            .collect()
    }

    /// The variables bound by `uri`, in template order, or `None` when it does not match.
    ///
    /// Linear in the URI's length for each part: a forward pass marks where each part can
    /// end, a backward pass picks the split (earlier variables take the longest text, as in a
    /// greedy regular expression), so a hostile URI cannot make the matcher backtrack.
    pub fn matches<'u>(&self, uri: &'u str) -> Option<Vec<(&str, &'u str)>> {
        // The literal ends decide most misses before any row is built.
        if let Some(Part::Literal(first)) = self.parts.first()
            && !uri.starts_with(first.as_str())
        {
            return None;
        }
        if let Some(Part::Literal(last)) = self.parts.last()
            && !uri.ends_with(last.as_str())
        {
            return None;
        }
        let n = uri.len();
        let bytes = uri.as_bytes();
        // reach[k][i]: the first k parts can cover uri[..i].
        let mut reach = vec![vec![false; n + 1]];
        reach[0][0] = true;
        for part in &self.parts {
            let from = reach.last().expect("one row per part, plus the start");
            let mut to = vec![false; n + 1];
            match part {
                Part::Literal(text) => {
                    for i in (0..=n).filter(|&i| from[i]) {
                        if bytes[i..].starts_with(text.as_bytes()) {
                            to[i + text.len()] = true;
                        }
                    }
                }
                Part::Variable { reserved, .. } => {
                    // Sweep left to right: a run may start at any reachable i and extend
                    // while it stays within one segment (or anywhere, when reserved).
                    let mut open = false;
                    for i in 0..n {
                        if !*reserved && bytes[i] == b'/' {
                            open = false;
                        } else if from[i] || open {
                            open = true;
                            if uri.is_char_boundary(i + 1) {
                                to[i + 1] = true;
                            }
                        }
                    }
                }
            }
            if !to.contains(&true) {
                return None;
            }
            reach.push(to);
        }
        if !reach.last()?[n] {
            return None;
        }
        let mut bound = Vec::new();
        let mut end = n;
        for (k, part) in self.parts.iter().enumerate().rev() {
            match part {
                Part::Literal(text) => end -= text.len(),
                Part::Variable { name, reserved } => {
                    // The latest start gives earlier variables the longest text, as a
                    // greedy regular expression would.
                    let start = (0..end)
                        .rev()
                        .filter(|&i| reach[k][i] && uri.is_char_boundary(i))
                        .find(|&i| *reserved || !uri[i..end].contains('/'))?;
                    bound.push((name.as_str(), &uri[start..end]));
                    end = start;
                }
            }
        }
        bound.reverse();
        Some(bound)
    }
}

/// `[A-Za-z0-9_]` or `%XX`, with single dots between (RFC 6570 varname).
fn valid_varname(name: &str) -> bool {
    name.split('.').all(|piece| {
        let bytes = piece.as_bytes();
        let mut i = 0;
        if bytes.is_empty() {
            return false;
        }
        while i < bytes.len() {
            match bytes[i] {
                b'%' if bytes.len() >= i + 3
                    && bytes[i + 1].is_ascii_hexdigit()
                    && bytes[i + 2].is_ascii_hexdigit() =>
                {
                    i += 3
                }
                b if b.is_ascii_alphanumeric() || b == b'_' => i += 1,
                _ => return false,
            }
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> UriTemplate {
        UriTemplate::parse(s).unwrap()
    }

    #[test]
    fn the_reference_examples_match_as_documented() {
        assert_eq!(
            t("by-id/{id}").matches("by-id/42"),
            Some(vec![("id", "42")])
        );
        assert_eq!(t("by-id/{id}").matches("by-id/4/2"), None);
        assert_eq!(t("by-id/{id}").matches("by-id/"), None);
        assert_eq!(
            t("tree/{+path}").matches("tree/x/y/z"),
            Some(vec![("path", "x/y/z")])
        );
        assert_eq!(
            t("{name}.txt").matches("notes.txt"),
            Some(vec![("name", "notes")])
        );
        assert_eq!(t("{name}.txt").matches("notes-txt"), None);
        assert_eq!(
            t("test://template/{id}/data").matches("test://template/123/data"),
            Some(vec![("id", "123")])
        );
    }

    #[test]
    fn matches_are_anchored_and_literal() {
        assert_eq!(t("a://x").matches("a://x"), Some(vec![]));
        assert_eq!(t("a://x").matches("a://xy"), None);
        assert_eq!(t("a://x").matches("za://x"), None);
        assert_eq!(t("a://{v}").matches("a://.*"), Some(vec![("v", ".*")]));
        assert_eq!(t("a://(x)").matches("a://x"), None);
    }

    #[test]
    fn earlier_reserved_variables_take_the_most() {
        assert_eq!(
            t("f://{+a}/{+b}").matches("f://1/2/3"),
            Some(vec![("a", "1/2"), ("b", "3")])
        );
        assert_eq!(
            t("f://{a}/{+b}").matches("f://1/2/3"),
            Some(vec![("a", "1"), ("b", "2/3")])
        );
        assert_eq!(
            t("f://{+a}.{b}").matches("f://x.y/z.w"),
            Some(vec![("a", "x.y/z"), ("b", "w")])
        );
    }

    #[test]
    fn multibyte_text_is_split_on_character_boundaries() {
        assert_eq!(
            t("u://{a}-{b}").matches("u://é-ü"),
            Some(vec![("a", "é"), ("b", "ü")])
        );
    }

    #[test]
    fn a_long_hostile_uri_is_matched_without_backtracking() {
        let uri = format!("f://{}", "/".repeat(200_000));
        assert_eq!(t("f://{+a}/{+b}/{+c}x").matches(&uri), None);
    }

    #[test]
    fn everything_outside_the_subset_is_refused() {
        for (source, error) in [
            ("a://{?q}", TemplateError::Unsupported("{?q}".into())),
            ("a://{#f}", TemplateError::Unsupported("{#f}".into())),
            ("a://{x*}", TemplateError::Unsupported("{x*}".into())),
            ("a://{x,y}", TemplateError::Unsupported("{x,y}".into())),
            ("a://{x:3}", TemplateError::Unsupported("{x:3}".into())),
            ("a://{x", TemplateError::BareBrace),
            ("a://x}", TemplateError::BareBrace),
            ("a://{{x}}", TemplateError::BareBrace),
            ("a://{}", TemplateError::EmptyName),
            ("a://{+}", TemplateError::EmptyName),
            ("a://{x}/{x}", TemplateError::RepeatedVariable("x".into())),
            (
                "a://{x}{y}",
                TemplateError::AdjacentVariables("x".into(), "y".into()),
            ),
        ] {
            assert_eq!(UriTemplate::parse(source), Err(error), "{source}");
        }
        assert!(UriTemplate::parse("a://{x.y}/{%41}").is_ok());
    }
}
