//! `pattern`: ECMA-262 regular expressions (with the `u` flag, as JSON Schema
//! recommends), matched in linear time by the `regex` crate.
//!
//! A host's pattern is translated once, when its schema is compiled, by a
//! tokenizer that walks the pattern and knows its escapes and classes; what
//! ECMA-262 means is spelled out in the syntax `regex` reads, and what
//! `regex` cannot do is refused:
//!
//! - Refused: lookahead `(?=..)` `(?!..)`, lookbehind `(?<=..)` `(?<!..)`,
//!   backreferences `\1` `\k<name>`, and inline modifiers `(?i:..)`.
//!   Lookaround and backreferences cannot be matched in linear time; the
//!   modifiers (ECMAScript 2025) would need case tables this build leaves out.
//! - Translated to ECMA's meaning: `\d` is `[0-9]`; `\w` is `[0-9A-Za-z_]`;
//!   `\b` and `\B` are ASCII word boundaries; `\s` is ECMA's own set (white
//!   space and line terminators: Unicode's `Zs`, tab, VT, FF, CR, LF,
//!   U+FEFF, U+2028 and U+2029; not U+0085); `.` matches any code point but
//!   the line terminators `\n`, `\r`, U+2028 and U+2029; `[]` matches
//!   nothing and `[^]` anything; `^` and `$` anchor at the ends of the input.
//!   Every group becomes non-capturing (only whether a pattern matches is
//!   ever asked), once its name, if any, is checked (a name is unique).
//! - Refused as ECMA-262 refuses them with the `u` flag: unknown escapes
//!   (`\q`, `\-` outside a class), lone `{`, `}` and `]`, a quantifier with
//!   nothing to repeat, octal escapes, and the like.
//! - Accepted more loosely than ECMA-262: `\p{..}` and `\P{..}` take
//!   whatever Unicode property the `regex` crate knows (the names are
//!   compared loosely, and a script may be named without `sc=`).
//!
//! A lone surrogate (`\uD800`) can never occur in a Rust string, so it
//! matches nothing. The compiled program is bounded ([`SIZE_LIMIT`]): a
//! pattern past it is refused when its schema is compiled, not when a call
//! arrives.

use std::fmt::{self, Write as _};

/// The largest compiled program a pattern may have, in bytes (each of the
/// forward and reverse programs): `^\p{L}{1,100}$` takes about 4 MiB,
/// `^\p{L}{1,1000}$` about 40 MiB (refused). Measured with the `regex`
/// crate's DFAs built, as they are beside `tracing-subscriber`'s env filter.
pub(crate) const SIZE_LIMIT: usize = 8 << 20;

/// The largest cache of the lazy DFA per pattern, in bytes (when the `regex`
/// crate is built with it; a search stays linear when the cache fills).
const DFA_SIZE_LIMIT: usize = 2 << 20;

/// A pattern longer than this is shown cut in messages.
const SHOWN: usize = 60;

/// ECMA-262's `\s`: WhiteSpace and LineTerminator, as `regex` class items.
const SPACE: &str = concat!(
    r"\x{9}-\x{D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}",
    r"\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}",
);

/// ECMA-262's `\d`, as class items.
const DIGIT: &str = "0-9";

/// ECMA-262's `\w` (without the `i` flag), as class items.
const WORD: &str = "0-9A-Za-z_";

/// ECMA-262's `.`: anything but a line terminator.
const DOT: &str = r"[^\x{A}\x{D}\x{2028}\x{2029}]";

/// A class that matches nothing, and one that matches any code point.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
const ANYTHING: &str = r"[\x{0}-\x{10FFFF}]";

/// The properties `\p{name=value}` may name (ECMA-262, table 67).
const NAMED_PROPERTIES: [&str; 6] = [
    "General_Category",
    "gc",
    "Script",
    "sc",
    "Script_Extensions",
    "scx",
];

/// Why a pattern was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Valid ECMA-262, but not matchable in linear time: the feature's name.
    Unsupported {
        /// 1-based, in characters.
        at: usize,
        feature: &'static str,
    },
    /// Not a valid ECMA-262 pattern (with the `u` flag).
    Syntax {
        /// 1-based, in characters.
        at: usize,
        what: String,
    },
    /// The compiled program would be larger than [`SIZE_LIMIT`].
    TooLarge,
    /// Refused by the `regex` crate itself (an unknown Unicode property, or
    /// nesting deeper than it allows).
    Engine(String),
}

/// A refusal, worded for a schema error, naming the pattern.
pub(crate) struct Described<'a> {
    source: &'a str,
    refusal: &'a Refusal,
}

impl Refusal {
    /// The message for `source`, as the schema module reports it after the location.
    pub(crate) fn describe<'a>(&'a self, source: &'a str) -> Described<'a> {
        Described {
            source,
            refusal: self,
        }
    }
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = Shown(self.source);
        match self.refusal {
            Refusal::Unsupported { at, feature } => write!(
                f,
                "pattern {shown} uses {feature} (at character {at}), which this server does not \
                 enforce: patterns are matched in linear time, without lookaround, \
                 backreferences or inline modifiers"
            ),
            Refusal::Syntax { at, what } => {
                write!(
                    f,
                    "pattern does not compile: {shown} at character {at}: {what}"
                )
            }
            Refusal::TooLarge => write!(
                f,
                "pattern {shown} is too large: compiled, it would exceed {SIZE_LIMIT} bytes"
            ),
            Refusal::Engine(what) => write!(f, "pattern does not compile: {shown}: {what}"),
        }
    }
}

/// A pattern in quotes, cut after [`SHOWN`] characters.
struct Shown<'a>(&'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(SHOWN) {
            Some((end, _)) => write!(f, "{:?}…", self.0.get(..end).unwrap_or_default()),
            None => write!(f, "{:?}", self.0),
        }
    }
}

/// Translates and compiles an ECMA-262 pattern; the result searches
/// anywhere in its input (a pattern is not implicitly anchored).
pub(crate) fn compile(source: &str) -> Result<regex::Regex, Refusal> {
    let translated = translate(source)?;
    regex::RegexBuilder::new(&translated)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(_) => Refusal::TooLarge,
            other => Refusal::Engine(engine_reason(&other.to_string())),
        })
}

/// The `error: ..` line of a `regex` message, without the caret drawing
/// (which points into the translation, not into the host's pattern).
fn engine_reason(message: &str) -> String {
    message
        .lines()
        .find_map(|line| line.strip_prefix("error: "))
        .unwrap_or(message)
        .to_owned()
}

/// The pattern in the syntax of the `regex` crate, with ECMA-262's meaning.
pub(crate) fn translate(source: &str) -> Result<String, Refusal> {
    let chars: Vec<char> = source.chars().collect();
    Translator {
        chars: &chars,
        at: 0,
        out: String::with_capacity(source.len() + 16),
        open: Vec::new(),
        names: Vec::new(),
        repeatable: false,
    }
    .run()
}

/// One member of a character class.
enum Member {
    /// A code point, or a lone surrogate (which no string holds).
    Char(u32),
    /// A class escape (`\d`, `\p{L}`, ...), already as class items.
    Set(String),
}

/// The walk over one pattern.
struct Translator<'p> {
    chars: &'p [char],
    /// Index of the next character.
    at: usize,
    out: String,
    /// Where each open group starts.
    open: Vec<usize>,
    /// Group names seen, to refuse a repeat.
    names: Vec<String>,
    /// Whether the last term may take a quantifier.
    repeatable: bool,
}

impl Translator<'_> {
    fn run(mut self) -> Result<String, Refusal> {
        while let Some(c) = self.next() {
            let start = self.at - 1;
            match c {
                '|' => {
                    self.out.push('|');
                    self.repeatable = false;
                }
                '(' => self.group(start)?,
                ')' => {
                    if self.open.pop().is_none() {
                        return Err(syntax(start, "unmatched )"));
                    }
                    self.out.push(')');
                    self.repeatable = true;
                }
                '^' | '$' => {
                    // Without the m flag both are whole-input anchors, as in `regex`.
                    self.out.push(c);
                    self.repeatable = false;
                }
                '.' => {
                    self.out.push_str(DOT);
                    self.repeatable = true;
                }
                '*' | '+' | '?' | '{' => self.quantifier(c, start)?,
                '}' | ']' => return Err(syntax(start, format!("lone {c}"))),
                '[' => {
                    self.class(start)?;
                    self.repeatable = true;
                }
                '\\' => self.escape(start)?,
                other => {
                    push_char(&mut self.out, u32::from(other));
                    self.repeatable = true;
                }
            }
        }
        if let Some(&start) = self.open.last() {
            return Err(syntax(start, "unclosed group"));
        }
        Ok(self.out)
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.get(self.at).copied();
        if c.is_some() {
            self.at += 1;
        }
        c
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Consumes `c` if it comes next.
    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.at += 1;
        }
        found
    }

    /// After `(`: a group, or one of the refused forms.
    fn group(&mut self, start: usize) -> Result<(), Refusal> {
        if self.eat('?') {
            let unsupported = |feature| {
                Err(Refusal::Unsupported {
                    at: start + 1,
                    feature,
                })
            };
            match self.next() {
                Some(':') => {}
                Some('=') => return unsupported("lookahead"),
                Some('!') => return unsupported("negative lookahead"),
                Some('<') if self.eat('=') => return unsupported("lookbehind"),
                Some('<') if self.eat('!') => return unsupported("negative lookbehind"),
                Some('<') => self.group_name(start)?,
                Some('i' | 'm' | 's' | '-') => return unsupported("inline modifiers"),
                _ => return Err(syntax(start, "invalid group")),
            }
        }
        // Every group is non-capturing: captures are never read.
        self.out.push_str("(?:");
        self.open.push(start);
        self.repeatable = false;
        Ok(())
    }

    /// `name>` after `(?<`: an identifier, unique in the pattern.
    fn group_name(&mut self, start: usize) -> Result<(), Refusal> {
        let mut name = String::new();
        loop {
            match self.next() {
                Some('>') => break,
                Some(c) if c == '$' || c == '_' || c.is_alphabetic() => name.push(c),
                Some(c) if !name.is_empty() && (c.is_alphanumeric() || is_joiner(c)) => {
                    name.push(c);
                }
                _ => return Err(syntax(start, "invalid group name")),
            }
        }
        if name.is_empty() {
            return Err(syntax(start, "invalid group name"));
        }
        if self.names.contains(&name) {
            return Err(syntax(start, format!("duplicate group name {name}")));
        }
        self.names.push(name);
        Ok(())
    }

    /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`, each perhaps followed by `?`.
    fn quantifier(&mut self, c: char, start: usize) -> Result<(), Refusal> {
        let written = if c == '{' {
            self.counted(start)?
        } else {
            c.to_string()
        };
        if !self.repeatable {
            return Err(syntax(start, "nothing to repeat"));
        }
        self.out.push_str(&written);
        if self.eat('?') {
            self.out.push('?');
        }
        self.repeatable = false;
        Ok(())
    }

    /// The rest of `{n}`, `{n,}` or `{n,m}` after `{`.
    fn counted(&mut self, start: usize) -> Result<String, Refusal> {
        let incomplete = || syntax(start, "incomplete quantifier (a lone { must be escaped)");
        let low = self.decimal(start)?.ok_or_else(incomplete)?;
        let high = if self.eat(',') {
            self.decimal(start)?
        } else {
            Some(low)
        };
        if !self.eat('}') {
            return Err(incomplete());
        }
        match high {
            Some(high) if high < low => Err(syntax(start, "numbers out of order in quantifier")),
            Some(high) if high == low => Ok(format!("{{{low}}}")),
            Some(high) => Ok(format!("{{{low},{high}}}")),
            None => Ok(format!("{{{low},}}")),
        }
    }

    /// Decimal digits, if any.
    fn decimal(&mut self, start: usize) -> Result<Option<u32>, Refusal> {
        let mut value: Option<u32> = None;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            self.at += 1;
            value = Some(
                value
                    .unwrap_or(0)
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(digit))
                    .ok_or_else(|| syntax(start, "quantifier too large"))?,
            );
        }
        Ok(value)
    }

    /// After `\` outside a class.
    fn escape(&mut self, start: usize) -> Result<(), Refusal> {
        self.repeatable = true;
        let Some(c) = self.peek() else {
            return Err(syntax(start, "\\ at end of pattern"));
        };
        match c {
            'b' | 'B' => {
                self.at += 1;
                // ECMA's word characters are ASCII (without the i flag).
                self.out
                    .push_str(if c == 'b' { r"(?-u:\b)" } else { r"(?-u:\B)" });
                self.repeatable = false;
            }
            '1'..='9' => {
                return Err(Refusal::Unsupported {
                    at: start + 1,
                    feature: "backreferences",
                });
            }
            'k' if self.chars.get(self.at + 1) == Some(&'<') => {
                return Err(Refusal::Unsupported {
                    at: start + 1,
                    feature: "backreferences",
                });
            }
            _ => match self.escape_member(start, false)? {
                Member::Set(items) => {
                    self.out.push('[');
                    self.out.push_str(&items);
                    self.out.push(']');
                }
                Member::Char(code) if is_surrogate(code) => self.out.push_str(NOTHING),
                Member::Char(code) => push_char(&mut self.out, code),
            },
        }
        Ok(())
    }

    /// A class escape or a character escape, after `\` (the `\` consumed).
    fn escape_member(&mut self, start: usize, in_class: bool) -> Result<Member, Refusal> {
        let Some(c) = self.next() else {
            return Err(syntax(start, "\\ at end of pattern"));
        };
        let set = |items: &str, negated: bool| {
            Member::Set(if negated {
                format!("[^{items}]")
            } else {
                items.to_owned()
            })
        };
        Ok(match c {
            'd' | 'D' => set(DIGIT, c == 'D'),
            'w' | 'W' => set(WORD, c == 'W'),
            's' | 'S' => set(SPACE, c == 'S'),
            'p' | 'P' => Member::Set(self.property(start, c)?),
            'f' => Member::Char(0xC),
            'n' => Member::Char(0xA),
            'r' => Member::Char(0xD),
            't' => Member::Char(0x9),
            'v' => Member::Char(0xB),
            'b' if in_class => Member::Char(0x8),
            '-' if in_class => Member::Char(u32::from('-')),
            'c' => match self.next() {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    Member::Char(u32::from(letter) % 32)
                }
                _ => return Err(syntax(start, "\\c must be followed by a letter A-Z or a-z")),
            },
            '0' => {
                if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return Err(syntax(start, "octal escapes are not allowed"));
                }
                Member::Char(0)
            }
            'x' => {
                let code = self.hex_digits(2).ok_or_else(|| {
                    syntax(start, "\\x must be followed by two hexadecimal digits")
                })?;
                Member::Char(code)
            }
            'u' => Member::Char(self.unicode_escape(start)?),
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => Member::Char(u32::from(c)),
            other => return Err(syntax(start, format!("unknown escape \\{other}"))),
        })
    }

    /// `\p{..}` or `\P{..}`, after the letter, as class items.
    fn property(&mut self, start: usize, letter: char) -> Result<String, Refusal> {
        let invalid = || {
            syntax(
                start,
                format!("\\{letter} must be followed by {{property}}"),
            )
        };
        if !self.eat('{') {
            return Err(invalid());
        }
        let mut body = String::new();
        loop {
            match self.next() {
                Some('}') => break,
                Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '=' => body.push(c),
                _ => return Err(invalid()),
            }
        }
        let valid = match body.split_once('=') {
            Some((name, value)) => {
                NAMED_PROPERTIES.contains(&name) && !value.is_empty() && !value.contains('=')
            }
            None => !body.is_empty(),
        };
        if !valid {
            return Err(syntax(start, format!("unknown Unicode property {body}")));
        }
        Ok(format!("\\{letter}{{{body}}}"))
    }

    /// Exactly `count` hexadecimal digits.
    fn hex_digits(&mut self, count: usize) -> Option<u32> {
        let digits = self.chars.get(self.at..self.at + count)?;
        let mut value = 0;
        for digit in digits {
            value = value * 16 + digit.to_digit(16)?;
        }
        self.at += count;
        Some(value)
    }

    /// After `\u`: `{hex}` up to 10FFFF, or four digits (a surrogate pair
    /// written as two escapes is one code point).
    fn unicode_escape(&mut self, start: usize) -> Result<u32, Refusal> {
        let invalid = || syntax(start, "invalid \\u escape");
        if self.eat('{') {
            let mut value: u32 = 0;
            let mut any = false;
            while let Some(digit) = self.peek().and_then(|c| c.to_digit(16)) {
                self.at += 1;
                any = true;
                value = value.saturating_mul(16).saturating_add(digit);
            }
            if !any || !self.eat('}') || value > 0x10_FFFF {
                return Err(invalid());
            }
            return Ok(value);
        }
        let high = self.hex_digits(4).ok_or_else(invalid)?;
        if (0xD800..0xDC00).contains(&high)
            && self.chars.get(self.at..self.at + 2) == Some(&['\\', 'u'])
        {
            let resume = self.at;
            self.at += 2;
            match self.hex_digits(4) {
                Some(low) if (0xDC00..0xE000).contains(&low) => {
                    return Ok(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
                }
                _ => self.at = resume,
            }
        }
        Ok(high)
    }

    /// After `[`: the whole class, to `]`.
    fn class(&mut self, start: usize) -> Result<(), Refusal> {
        let negated = self.eat('^');
        let mut items = String::new();
        loop {
            let first = match self.class_atom(start)? {
                None => break,
                Some(member) => member,
            };
            // `a-z`, unless the `-` is the class's last character.
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|c| *c != ']') {
                let dash = self.at;
                self.at += 1;
                let Some(second) = self.class_atom(start)? else {
                    return Err(syntax(start, "unclosed class"));
                };
                match (first, second) {
                    (Member::Char(low), Member::Char(high)) => {
                        if low > high {
                            return Err(syntax(dash, "range out of order in class"));
                        }
                        push_range(&mut items, low, high);
                    }
                    _ => return Err(syntax(dash, "a class escape cannot bound a range")),
                }
                continue;
            }
            match first {
                Member::Set(set) => items.push_str(&set),
                Member::Char(code) if is_surrogate(code) => {}
                Member::Char(code) => push_char(&mut items, code),
            }
        }
        match (items.is_empty(), negated) {
            (true, false) => self.out.push_str(NOTHING),
            (true, true) => self.out.push_str(ANYTHING),
            (false, _) => {
                self.out.push('[');
                if negated {
                    self.out.push('^');
                }
                self.out.push_str(&items);
                self.out.push(']');
            }
        }
        Ok(())
    }

    /// One member of a class, or `None` at its closing `]`.
    fn class_atom(&mut self, start: usize) -> Result<Option<Member>, Refusal> {
        match self.next() {
            None => Err(syntax(start, "unclosed class")),
            Some(']') => Ok(None),
            Some('\\') => self.escape_member(self.at - 1, true).map(Some),
            Some(c) => Ok(Some(Member::Char(u32::from(c)))),
        }
    }
}

/// A syntax refusal at the 0-based character index `at`.
fn syntax(at: usize, what: impl Into<String>) -> Refusal {
    Refusal::Syntax {
        at: at + 1,
        what: what.into(),
    }
}

fn is_surrogate(code: u32) -> bool {
    (0xD800..0xE000).contains(&code)
}

/// ZWNJ and ZWJ, which ECMA-262 allows inside identifiers.
fn is_joiner(c: char) -> bool {
    c == '\u{200C}' || c == '\u{200D}'
}

/// A code point as a literal `regex` reads the same in and out of a class:
/// ASCII letters and digits and anything beyond ASCII as themselves, the
/// rest (punctuation, controls, space) as `\x{..}`.
fn push_char(out: &mut String, code: u32) {
    match char::from_u32(code) {
        Some(c) if c.is_ascii_alphanumeric() || !c.is_ascii() => out.push(c),
        // Writing to a String cannot fail.
        _ => {
            let _ = write!(out, "\\x{{{code:X}}}");
        }
    }
}

/// A class range, less the surrogates no string holds.
fn push_range(out: &mut String, low: u32, high: u32) {
    let low = if is_surrogate(low) { 0xE000 } else { low };
    let high = if is_surrogate(high) { 0xD7FF } else { high };
    if low <= high {
        push_char(out, low);
        out.push('-');
        push_char(out, high);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(source: &str) -> Refusal {
        match translate(source) {
            Ok(translated) => panic!("{source:?} should be refused, got {translated:?}"),
            Err(refusal) => refusal,
        }
    }

    #[test]
    fn translations_spell_out_ecma_meanings() {
        for (source, expected) in [
            ("abc", "abc"),
            ("^a$", "^a$"),
            (r"\d+", "[0-9]+"),
            (r"\D", "[[^0-9]]"),
            (r"\w\W", "[0-9A-Za-z_][[^0-9A-Za-z_]]"),
            (r"\bx\B", r"(?-u:\b)x(?-u:\B)"),
            (".", DOT),
            ("(a)(?:b)(?<n>c)", "(?:a)(?:b)(?:c)"),
            ("a{2}b{2,}c{2,3}?", "a{2}b{2,}c{2,3}?"),
            (r"[\d.-]", r"[0-9\x{2E}\x{2D}]"),
            (r"[^a-z]", "[^a-z]"),
            ("[]", NOTHING),
            ("[^]", ANYTHING),
            (r"\u00e9\u{1F600}\uD83D\uDE00\x41", "é😀😀A"),
            (r"\uD800", NOTHING),
            (r"[\uD800-\uDFFF]", NOTHING),
            (r"[\u0000-\uFFFF]", "[\\x{0}-\u{FFFF}]"),
            (r"[\uD800-\uFFFF]", "[\u{E000}-\u{FFFF}]"),
            (r"[\x00-\uDBFF]", "[\\x{0}-\u{D7FF}]"),
            (r"\p{L}\P{sc=Greek}", r"[\p{L}][\P{sc=Greek}]"),
            (r"\cJ\0\/", r"\x{A}\x{0}\x{2F}"),
            (r"[\b\-]", r"[\x{8}\x{2D}]"),
            ("[a-]", r"[a\x{2D}]"),
            ("[--a]", r"[\x{2D}-a]"),
            ("[[]", r"[\x{5B}]"),
            ("a b", r"a\x{20}b"),
        ] {
            assert_eq!(translate(source).as_deref(), Ok(expected), "{source}");
        }
    }

    #[test]
    fn lookaround_backreferences_and_modifiers_are_unsupported() {
        for (source, feature, at) in [
            ("(?=a)", "lookahead", 1),
            ("x(?!a)", "negative lookahead", 2),
            ("(?<=a)b", "lookbehind", 1),
            ("(?<!a)b", "negative lookbehind", 1),
            (r"(a)\1", "backreferences", 4),
            (r"(?<n>a)\k<n>", "backreferences", 8),
            ("(?i:a)", "inline modifiers", 1),
        ] {
            assert_eq!(
                refusal(source),
                Refusal::Unsupported { at, feature },
                "{source}"
            );
        }
    }

    #[test]
    fn invalid_ecma_syntax_is_refused() {
        for (source, what) in [
            ("(", "unclosed group"),
            (")", "unmatched )"),
            ("[a-", "unclosed class"),
            ("[z-a]", "range out of order in class"),
            (r"[\d-z]", "a class escape cannot bound a range"),
            ("a{2,1}", "numbers out of order in quantifier"),
            ("a{", "incomplete quantifier (a lone { must be escaped)"),
            ("a{,2}", "incomplete quantifier (a lone { must be escaped)"),
            ("}", "lone }"),
            ("]", "lone ]"),
            ("*a", "nothing to repeat"),
            ("a**", "nothing to repeat"),
            ("^*", "nothing to repeat"),
            (r"\b+", "nothing to repeat"),
            ("(|*)", "nothing to repeat"),
            (r"\q", "unknown escape \\q"),
            (r"\-", "unknown escape \\-"),
            (r"[\B]", "unknown escape \\B"),
            (r"\00", "octal escapes are not allowed"),
            (r"\c1", "\\c must be followed by a letter A-Z or a-z"),
            (r"\x4", "\\x must be followed by two hexadecimal digits"),
            (r"\u{110000}", "invalid \\u escape"),
            (r"\p{Foo=Bar}", "unknown Unicode property Foo=Bar"),
            (r"\pL", "\\p must be followed by {property}"),
            ("(?<n>a)(?<n>b)", "duplicate group name n"),
            ("(?<1>a)", "invalid group name"),
            ("(?x)", "invalid group"),
            ("\\", "\\ at end of pattern"),
        ] {
            match refusal(source) {
                Refusal::Syntax { what: found, .. } => assert_eq!(found, what, "{source}"),
                other => panic!("{source}: {other:?}"),
            }
        }
    }

    #[test]
    fn messages_name_the_pattern_and_cut_long_ones() {
        let refusal = Refusal::Unsupported {
            at: 1,
            feature: "lookahead",
        };
        assert_eq!(
            refusal.describe("(?=a)").to_string(),
            "pattern \"(?=a)\" uses lookahead (at character 1), which this server does not \
             enforce: patterns are matched in linear time, without lookaround, \
             backreferences or inline modifiers"
        );
        let long = "a".repeat(100);
        assert_eq!(
            Refusal::TooLarge.describe(&long).to_string(),
            format!(
                "pattern \"{}\"… is too large: compiled, it would exceed {SIZE_LIMIT} bytes",
                "a".repeat(SHOWN)
            )
        );
        assert_eq!(
            engine_reason("regex parse error:\n    x\n    ^\nerror: Unicode property not found"),
            "Unicode property not found"
        );
    }
}
