//! How deep a file nests, looked at before it is parsed. syn's parser, its `Clone` and `Drop`
//! and the scan's visitor recurse once per level of nesting, and a stack overflow aborts the
//! build script (it is no panic the scan could report). proc-macro2's lexer and the `Drop` of
//! its token streams are iterative, so the file is lexed, then walked here with a stack of its
//! own, and refused when it nests deeper than the scan's stack is sized for.
//!
//! Two measures: the delimiters open, and an estimate of the syntax tree's depth, which also
//! counts what nests without a delimiter (`1 + 1 + ...`, `a.b().c()...`, `Vec<Vec<...>>`,
//! `!!!x`, `return return ...`). The estimate is deliberately coarse: at each level, the
//! operators and nesting keywords since the last `,`, `;` or block, plus the `<` not yet closed.
//! Macro arguments are tokens, not code, and are not estimated (their delimiters count).

use proc_macro2::{Delimiter, LineColumn, Spacing, TokenStream, TokenTree, token_stream};

/// The most delimiters open at once.
pub(crate) const MAX_DELIMITERS: usize = 256;
/// The deepest estimated syntax tree. The costliest level (a generic argument in a debug
/// build) takes about 50 KiB of the scan's 64 MiB stack.
pub(crate) const MAX_DEPTH: usize = 512;

/// Keywords whose operand nests: `x as T as U`, `else if`, `return return x`, `move || ...`.
const NESTING_KEYWORDS: &[&str] = &["as", "else", "return", "break", "yield", "move"];
/// Keywords that may precede `!(...)` without naming a macro: `if !(a && b)`.
const NOT_MACRO_NAMES: &[&str] = &["if", "while", "match", "return", "break", "in", "yield"];

/// Where a file nests too deep, and what.
#[derive(Debug)]
pub(crate) struct TooDeep {
    pub(crate) at: LineColumn,
    pub(crate) what: String,
    pub(crate) limit: usize,
}

/// A token at one level, as far as seeing `name!(...)` and `macro_rules! name {...}` needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    MacroRules,
    /// An identifier that can name a macro.
    Name,
    Bang,
    Other,
}

struct Frame {
    tokens: token_stream::IntoIter,
    /// Inside a macro's arguments.
    opaque: bool,
    /// Operators and nesting keywords since the last `,`, `;` or block at this level.
    run: usize,
    /// `<` not closed since the last `;` or block (generic arguments nest across `,`).
    angles: usize,
    /// A brace group just closed here: the run ends unless the expression goes on.
    after_block: bool,
    /// The previous token, when it was a punctuation joined to the next (`-` of `->`).
    joint: Option<char>,
    /// The last three tokens, oldest first.
    seen: [Seen; 3],
}

impl Frame {
    fn new(tokens: TokenStream, opaque: bool) -> Frame {
        Frame {
            tokens: tokens.into_iter(),
            opaque,
            run: 0,
            angles: 0,
            after_block: false,
            joint: None,
            seen: [Seen::Other; 3],
        }
    }

    /// What this level adds to the estimated depth.
    fn weight(&self) -> usize {
        if self.opaque {
            1
        } else {
            1 + self.run + self.angles
        }
    }

    fn see(&mut self, seen: Seen) {
        self.seen = [self.seen[1], self.seen[2], seen];
    }

    /// True when a group following the tokens seen is a macro's arguments or body.
    fn macro_group(&self) -> bool {
        matches!(self.seen, [_, Seen::Name | Seen::MacroRules, Seen::Bang])
            || matches!(self.seen, [Seen::MacroRules, Seen::Bang, Seen::Name])
    }

    /// Ends the run after a block, unless `token` carries the expression on.
    fn after(&mut self, token: &TokenTree) {
        if !std::mem::take(&mut self.after_block) {
            return;
        }
        let goes_on = match token {
            TokenTree::Ident(ident) => ident == "else",
            TokenTree::Punct(punct) => matches!(punct.as_char(), '.' | '?'),
            _ => false,
        };
        if !goes_on {
            self.run = 0;
            self.angles = 0;
        }
    }

    /// Counts one token of code at this level.
    fn count(&mut self, token: &TokenTree) {
        match token {
            TokenTree::Punct(punct) => {
                let c = punct.as_char();
                let after_hash = self.joint == Some('#');
                match c {
                    ',' => self.run = 0,
                    ';' => {
                        self.run = 0;
                        self.angles = 0;
                    }
                    // Paths and ascriptions (`a::b`, `x: T`) and attributes do not nest.
                    ':' | '#' => {}
                    '!' if after_hash => {}
                    '<' if punct.spacing() == Spacing::Alone => self.angles += 1,
                    // The `>` of `->` and `=>`: its first half counted.
                    '>' if matches!(self.joint, Some('-' | '=')) => {}
                    '>' if self.angles > 0 => self.angles -= 1,
                    _ => self.run += 1,
                }
            }
            TokenTree::Ident(ident) => {
                let word = ident.to_string();
                if NESTING_KEYWORDS.contains(&word.as_str()) {
                    self.run += 1;
                }
            }
            TokenTree::Group(_) | TokenTree::Literal(_) => {}
        }
    }
}

/// Walks `tokens` and refuses the first place nested deeper than the scan reads.
pub(crate) fn check(tokens: TokenStream) -> Result<(), TooDeep> {
    let mut stack = vec![Frame::new(tokens, false)];
    // The estimated depth of the frames below the top one.
    let mut below = 0usize;
    loop {
        let open = stack.len();
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        let Some(token) = top.tokens.next() else {
            stack.pop();
            if let Some(parent) = stack.last() {
                below = below.saturating_sub(parent.weight());
            }
            continue;
        };
        if !top.opaque {
            top.after(&token);
            top.count(&token);
        }
        let seen = match &token {
            TokenTree::Ident(ident) => {
                let word = ident.to_string();
                if word == "macro_rules" {
                    Seen::MacroRules
                } else if NOT_MACRO_NAMES.contains(&word.as_str()) {
                    Seen::Other
                } else {
                    Seen::Name
                }
            }
            TokenTree::Punct(punct) if punct.as_char() == '!' => Seen::Bang,
            _ => Seen::Other,
        };
        let macro_group = top.macro_group();
        top.see(seen);
        top.joint = match &token {
            TokenTree::Punct(punct) if punct.spacing() == Spacing::Joint => Some(punct.as_char()),
            // `#` of `#!` and `#[`: alone, but what follows is an attribute.
            TokenTree::Punct(punct) if punct.as_char() == '#' => Some('#'),
            _ => None,
        };
        if let TokenTree::Group(group) = token {
            // The bottom frame is the file, not a delimiter.
            if open > MAX_DELIMITERS {
                return Err(TooDeep {
                    at: group.span_open().start(),
                    what: format!(
                        "more than {MAX_DELIMITERS} brackets, braces and parentheses are open"
                    ),
                    limit: MAX_DELIMITERS,
                });
            }
            let opaque = top.opaque || macro_group;
            let brace = group.delimiter() == Delimiter::Brace;
            below += top.weight();
            // A block ends the run it closes, once its end is seen.
            top.after_block = brace && !top.opaque;
            stack.push(Frame::new(group.stream(), opaque));
            if below + 1 > MAX_DEPTH {
                return Err(too_deep(group.span_open().start()));
            }
            continue;
        }
        if below + top.weight() > MAX_DEPTH {
            return Err(too_deep(token.span().start()));
        }
    }
}

fn too_deep(at: LineColumn) -> TooDeep {
    TooDeep {
        at,
        what: format!(
            "the code nests more than {MAX_DEPTH} levels deep (operators, keywords such as `as` and `else`, generic arguments and delimiters counted)"
        ),
        limit: MAX_DEPTH,
    }
}
