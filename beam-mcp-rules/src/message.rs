//! Every catalog mistake beam-mcp refuses, worded once: the macros print these as compile
//! errors and the runtime returns them as startup errors.

use std::fmt;

use crate::TemplateError;

/// One catalog mistake, with what to do about it.
///
/// ```
/// use beam_mcp_rules::Message;
/// let m = Message::MissingDescription { kind: "tool", name: "get_weather".into() };
/// assert_eq!(
///     m.to_string(),
///     "tool \"get_weather\" has no description: write a doc comment on the function, or set description = \"...\""
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Message {
    /// A tool name outside the rule of [`valid_tool_name`](crate::valid_tool_name).
    InvalidToolName {
        /// The name.
        name: String,
    },
    /// An item with an empty name.
    EmptyName {
        /// `prompt` or `resource`.
        kind: &'static str,
    },
    /// A tool or prompt without a description.
    MissingDescription {
        /// `tool` or `prompt`.
        kind: &'static str,
        /// Its name.
        name: String,
    },
    /// Two items with one key.
    Duplicate {
        /// `tool name`, `prompt name`, `resource URI` or `resource template`.
        kind: &'static str,
        /// The key.
        key: String,
    },
    /// A resource URI that is not one.
    InvalidUri {
        /// The URI or template.
        uri: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A template outside the supported subset.
    Template {
        /// The template.
        template: String,
        /// What is wrong.
        error: TemplateError,
    },
    /// A template variable the reader has no parameter for.
    VariableWithoutParameter {
        /// The template.
        template: String,
        /// The variable.
        variable: String,
    },
    /// A reader parameter the template does not bind.
    ParameterWithoutVariable {
        /// The template.
        template: String,
        /// The parameter.
        parameter: String,
    },
    /// A prompt argument whose type is not a string.
    PromptArgumentNotString {
        /// The argument.
        argument: String,
    },
    /// A prompt argument declared twice.
    RepeatedArgument {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
    },
    /// An `x-mcp-header` on a parameter that is not an integer, string or boolean.
    HeaderType {
        /// The parameter.
        parameter: String,
    },
    /// An `x-mcp-header` name that cannot be an HTTP header name.
    HeaderName {
        /// The name.
        name: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// Two `x-mcp-header` names of one tool equal ignoring case.
    HeaderRepeated {
        /// The first name.
        first: String,
        /// The second name.
        second: String,
    },
    /// A required client capability that is not one.
    ClientCapability {
        /// The name given.
        name: String,
    },
    /// A completion for an argument or variable the item does not have.
    CompletionTarget {
        /// The item (prompt name or template).
        item: String,
        /// The argument named by the completion.
        argument: String,
    },
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidToolName { name } => write!(
                f,
                "tool name {name:?} is invalid: a tool name is 1 to 64 characters of A-Z a-z 0-9 _ . - /; rename it, or set name = \"...\""
            ),
            Self::EmptyName { kind } => write!(f, "a {kind} name is empty; give it a name"),
            Self::MissingDescription { kind, name } => write!(
                f,
                "{kind} {name:?} has no description: write a doc comment on the function, or set description = \"...\""
            ),
            Self::Duplicate { kind, key } => write!(
                f,
                "{kind} {key:?} is declared more than once; the lists are keyed by it, so rename or remove one"
            ),
            Self::InvalidUri { uri, reason } => {
                write!(f, "resource URI {uri:?} is invalid: {reason}")
            }
            Self::Template { template, error } => {
                write!(f, "resource template {template:?} is refused: {error}")
            }
            Self::VariableWithoutParameter { template, variable } => write!(
                f,
                "resource template {template:?} has the variable {{{variable}}}, but the function has no parameter named `{variable}`; add `{variable}: String`"
            ),
            Self::ParameterWithoutVariable {
                template,
                parameter,
            } => write!(
                f,
                "parameter `{parameter}` is not a variable of resource template {template:?}; a reader's parameters (besides State<T>) are bound from the URI, so add {{{parameter}}} to the template or remove the parameter"
            ),
            Self::PromptArgumentNotString { argument } => write!(
                f,
                "prompt argument `{argument}` must be a String (required) or an Option<String> (optional): prompt arguments are strings on the wire"
            ),
            Self::RepeatedArgument { prompt, argument } => write!(
                f,
                "prompt {prompt:?} declares the argument {argument:?} twice; rename one"
            ),
            Self::HeaderType { parameter } => write!(
                f,
                "parameter `{parameter}` carries an x-mcp-header, so it must be an integer, a string or a boolean (optional or not): only those travel in an HTTP header"
            ),
            Self::HeaderName { name, reason } => {
                write!(f, "x-mcp-header name {name:?} is invalid: {reason}")
            }
            Self::HeaderRepeated { first, second } => write!(
                f,
                "x-mcp-header names {first:?} and {second:?} are equal ignoring case, and HTTP header names are case-insensitive; rename one"
            ),
            Self::ClientCapability { name } => write!(
                f,
                "`{name}` is not a client capability a tool can require; the capabilities are sampling, elicitation and roots"
            ),
            Self::CompletionTarget { item, argument } => write!(
                f,
                "{item:?} has no argument or variable named `{argument}` to complete; name one it declares"
            ),
        }
    }
}

impl std::error::Error for Message {}
