//! A hand-written catalog is refused at `ServerBuilder::build`, before the first request, for
//! every mistake the macros refuse at compile time, in the same words (`beam_mcp::Message`); the
//! expected text is written out here, not built with `Message`, so a change in the wording shows.

use beam_mcp::completion::{Completion, CompletionDef, CompletionRequest};
use beam_mcp::prompt::{GetPromptResult, PromptArgument, PromptDef, PromptFault, PromptRequest};
use beam_mcp::resource::{ReadRequest, ResourceContents, ResourceDef, ResourceError};
use beam_mcp::tool::{BoxFuture, StateRequirement};
use beam_mcp::{Server, ServerBuilder, ToolDef};
use serde_json::{Value, json};

fn read(_: ReadRequest) -> BoxFuture<Result<Vec<ResourceContents>, ResourceError>> {
    Box::pin(async { Ok(vec![ResourceContents::text("x")]) })
}

fn render(_: PromptRequest) -> BoxFuture<Result<GetPromptResult, PromptFault>> {
    Box::pin(async { Ok(GetPromptResult::default()) })
}

fn nothing(_: CompletionRequest) -> beam_mcp::tool::BoxFuture<Completion> {
    Box::pin(async { Completion::default() })
}

const RESOURCE: ResourceDef =
    ResourceDef::new("app://one", "one", read).declared_at("hand", "hand.rs", 1);

const PROMPT: PromptDef = PromptDef::new("ask", "Asks.", render)
    .with_arguments(&[PromptArgument::new("topic")])
    .declared_at("hand", "hand.rs", 2);

/// Echoes.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

fn template(uri: &'static str, parameters: &'static [&'static str]) -> ResourceDef {
    let mut def = RESOURCE.with_parameters(parameters);
    def.uri = uri;
    def
}

fn refusal(builder: ServerBuilder) -> String {
    builder.build().expect_err("refused").to_string()
}

#[test]
fn duplicates_of_every_kind_are_refused() {
    let b = Server::builder().resource(RESOURCE).resource(RESOURCE);
    assert_eq!(
        refusal(b),
        "resource URI \"app://one\" is declared more than once; the lists are keyed by it, so rename or remove one"
    );
    // Two templates of one shape match the same URIs, whatever the variables are called.
    let b = Server::builder()
        .resource(template("app://{a}/x", &["a"]))
        .resource(template("app://{b}/x", &["b"]));
    assert_eq!(
        refusal(b),
        "resource template \"app://{b}/x\" is declared more than once; the lists are keyed by it, so rename or remove one"
    );
    let b = Server::builder()
        .resource(template("app://{a}/x", &["a"]))
        .resource(template("app://{+b}/x", &["b"]));
    assert!(b.build().is_ok(), "{{a}} and {{+b}} are different shapes");
    let b = Server::builder().prompt(PROMPT).prompt(PROMPT);
    assert_eq!(
        refusal(b),
        "prompt name \"ask\" is declared more than once; the lists are keyed by it, so rename or remove one"
    );
    let mut renamed = echo::DEF;
    renamed.name = "echo";
    let b = Server::builder().tool(echo::DEF).tool(renamed);
    assert_eq!(
        refusal(b),
        "tool name \"echo\" is declared more than once; the lists are keyed by it, so rename or remove one"
    );
}

#[test]
fn templates_outside_the_subset_and_unbound_variables_are_refused() {
    for (uri, parameters, expected) in [
        (
            "app://{?q}",
            &["q"][..],
            "resource template \"app://{?q}\" is refused: the expression {?q} is outside the supported subset: only {name} (one path segment) and {+name} (any text) are matched",
        ),
        (
            "app://x}",
            &[][..],
            "resource template \"app://x}\" is refused: a brace outside an expression: write a variable as {name} or {+name}; a literal brace cannot appear in a template",
        ),
        (
            "app://{a}{b}",
            &["a", "b"][..],
            "resource template \"app://{a}{b}\" is refused: the variables a and b touch, so no URI could be split between them: put literal text (such as /) between them",
        ),
        (
            "app://{id}",
            &[][..],
            "resource template \"app://{id}\" has the variable {id}, but the function has no parameter named `id`; add `id: String`",
        ),
        (
            "app://{id}",
            &["id", "extra"][..],
            "parameter `extra` is not a variable of resource template \"app://{id}\"; a reader's parameters (besides State<T>) are bound from the URI, so add {extra} to the template or remove the parameter",
        ),
        (
            "no-scheme/{id}",
            &["id"][..],
            "resource URI \"no-scheme/{id}\" is invalid: a resource URI starts with a scheme such as `file:` or `app://`",
        ),
    ] {
        let b = Server::builder().resource(template(uri, parameters));
        assert_eq!(refusal(b), expected, "{uri}");
    }
}

#[test]
fn prompt_rules_are_refused() {
    let mut undocumented = PROMPT;
    undocumented.description = "  ";
    assert_eq!(
        refusal(Server::builder().prompt(undocumented)),
        "prompt \"ask\" has no description: write a doc comment on the function, or set description = \"...\""
    );
    let mut repeated = PROMPT;
    const REPEATED: &[PromptArgument] = &[
        PromptArgument::new("a"),
        PromptArgument::new("a").optional(),
    ];
    repeated.arguments = REPEATED;
    assert_eq!(
        refusal(Server::builder().prompt(repeated)),
        "prompt \"ask\" declares the argument \"a\" twice; rename one"
    );
    let mut completes_nothing = PROMPT;
    const NOPE: &[CompletionDef] = &[CompletionDef::new("nope", nothing)];
    completes_nothing.completions = NOPE;
    assert_eq!(
        refusal(Server::builder().prompt(completes_nothing)),
        "\"ask\" has no argument or variable named `nope` to complete; name one it declares"
    );
    let mut unnamed = PROMPT;
    unnamed.name = "";
    assert_eq!(
        refusal(Server::builder().prompt(unnamed)),
        "a prompt name is empty; give it a name"
    );
}

#[derive(Clone)]
struct Db;

#[test]
fn a_missing_state_names_the_item_of_any_kind() {
    const NEEDS_DB: &[StateRequirement] = &[StateRequirement::of::<Db>()];
    let mut resource = RESOURCE;
    resource.states = NEEDS_DB;
    assert!(
        refusal(Server::builder().resource(resource))
            .starts_with("resource \"app://one\" takes State<catalog_rules::Db>")
    );
    let mut prompt = PROMPT;
    prompt.states = NEEDS_DB;
    let message = refusal(Server::builder().prompt(prompt));
    assert!(
        message.starts_with("prompt \"ask\" takes State<"),
        "{message}"
    );
    let mut prompt = PROMPT;
    prompt.states = NEEDS_DB;
    assert!(Server::builder().prompt(prompt).state(Db).build().is_ok());
}

fn schema_with(properties: Value) -> Value {
    json!({ "type": "object", "properties": properties })
}

#[test]
fn x_mcp_header_rules_are_refused() {
    fn tool_with(schema: fn() -> Value) -> ToolDef {
        echo::DEF.with_input_schema(schema)
    }
    type SchemaFn = fn() -> Value;
    let cases: [(SchemaFn, &str); 4] = [
        (
            || schema_with(json!({ "tags": { "type": "array", "x-mcp-header": "Tags" } })),
            "parameter `tags` carries an x-mcp-header, so it must be an integer, a string or a boolean (optional or not): only those travel in an HTTP header",
        ),
        (
            || {
                schema_with(json!({
                    "a": { "type": "string", "x-mcp-header": "Region" },
                    "b": { "type": "string", "x-mcp-header": "region" },
                }))
            },
            "x-mcp-header names \"Region\" and \"region\" are equal ignoring case, and HTTP header names are case-insensitive; rename one",
        ),
        (
            || schema_with(json!({ "a": { "type": "string", "x-mcp-header": "two words" } })),
            "x-mcp-header name \"two words\" is invalid: an x-mcp-header name is an HTTP token (letters, digits and !#$%&'*+-.^_`|~), because it becomes the header Mcp-Param-{name}",
        ),
        (
            || schema_with(json!({ "a": { "type": ["string", "integer"], "x-mcp-header": "A" } })),
            "parameter `a` carries an x-mcp-header, so it must be an integer, a string or a boolean (optional or not): only those travel in an HTTP header",
        ),
    ];
    for (schema, expected) in cases {
        assert_eq!(refusal(Server::builder().tool(tool_with(schema))), expected);
    }
    let fine: fn() -> Value = || {
        schema_with(json!({
            "a": { "type": ["string", "null"], "x-mcp-header": "A" },
            "b": { "type": "integer", "x-mcp-header": "B" },
            "c": { "type": "boolean", "x-mcp-header": "C" },
        }))
    };
    assert!(Server::builder().tool(tool_with(fine)).build().is_ok());
}

#[test]
fn a_required_client_capability_must_be_one() {
    let def = echo::DEF.with_client_capabilities(&["telepathy"]);
    assert_eq!(
        refusal(Server::builder().tool(def)),
        "`telepathy` is not a client capability a tool can require; the capabilities are sampling, elicitation and roots"
    );
}

fn refused_schema() -> Value {
    json!({ "type": "object", "properties": { "a": { "$dynamicRef": "#x" } } })
}

fn list_root() -> Value {
    json!({ "type": "array" })
}

/// One build names every refused item at once, not the first one per start.
#[test]
fn every_refusal_of_one_build_is_reported_together() {
    let tool = |name: &'static str, schema: fn() -> Value| {
        echo::DEF.with_name(name).with_input_schema(schema)
    };
    let b = Server::builder()
        .tool(tool("first", refused_schema))
        .tool(echo::DEF)
        .tool(tool("second", list_root))
        .resource(template("app://{a}/x", &[]));
    let message = refusal(b);
    let lines: Vec<&str> = message.lines().collect();
    assert_eq!(lines[0], "3 items were refused:", "{message}");
    assert_eq!(
        lines[1],
        "- tool \"first\": the schema, property a uses $dynamicRef, which this server does not enforce; use $ref"
    );
    assert!(
        lines[2]
            .starts_with("- tool \"second\": the input schema's root must have type \"object\""),
        "{message}"
    );
    assert!(
        lines[3].starts_with("- ") && lines[3].contains("app://{a}/x"),
        "{message}"
    );
    assert_eq!(lines.len(), 4, "{message}");
}

#[test]
fn what_hosts_display_is_refused_when_the_spec_cannot_carry_it() {
    use beam_mcp::Icon;
    const FTP: &[Icon] = &[Icon::url("ftp://example.com/a.png")];
    let b = Server::builder().tool(echo::DEF.with_icons(FTP));
    assert_eq!(
        refusal(b),
        "tool \"echo\": icon \"ftp://example.com/a.png\": an icon is an https: (or http:) URL or a data: URI; a file in the crate is embedded with icon = \"path\" in an attribute or beam_mcp::icon!(\"path\")"
    );
    const TIFF: &[Icon] = &[Icon::url("https://example.com/a.tif").with_mime_type("image/tiff")];
    let b = Server::builder().prompt(PROMPT.with_icons(TIFF));
    assert!(refusal(b).starts_with(
        "prompt \"ask\": icon \"https://example.com/a.tif\": \"image/tiff\" is not an icon type"
    ),);
    const UNSIZED: &[Icon] = &[Icon::url("https://example.com/a.png").with_sizes(&["big"])];
    let b = Server::builder().resource(RESOURCE.with_icons(UNSIZED));
    assert_eq!(
        refusal(b),
        "resource \"app://one\": icon \"https://example.com/a.png\": icon size \"big\" is written WxH (\"48x48\") or \"any\""
    );
    let b = Server::builder().resource(template("app://notes/{id}", &["id"]).with_size(10));
    assert_eq!(
        refusal(b),
        "resource \"app://notes/{id}\": a template has no size (the spec's ResourceTemplate has none); give it to each resource it reads"
    );
    let b = Server::builder().website_url("example.com");
    assert_eq!(
        refusal(b),
        "server: website_url \"example.com\" is not an https: (or http:) URL"
    );
    let b = Server::builder().icon(Icon::url("data:text/html;base64,PGI+"));
    assert!(refusal(b).starts_with(
        "server: icon \"data:text/html;base64,PGI+\": \"text/html\" is not an icon type"
    ));
    let b = Server::builder()
        .icon(Icon::url("data:image/png;base64,iVBORw0KGgo=").with_mime_type("image/svg+xml"));
    assert_eq!(
        refusal(b),
        "server: icon \"data:image/png;base64,iVBORw0KGgo=\": its mime_type image/svg+xml is not the type of its data: URI"
    );
    // A long data: URI is cut in the message.
    let b = Server::builder().icon(Icon::url(
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAQ0lEQVR42m!!",
    ));
    assert_eq!(
        refusal(b),
        "server: icon \"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAB\": a data: icon's data is base64"
    );
}

#[test]
fn a_skill_is_refused_by_the_extension_s_rules() {
    use beam_mcp::skill::{SkillDef, SkillFile};
    const MD: &[SkillFile] = &[SkillFile::new("SKILL.md", b"---\n---\n", "text/markdown")];
    let skill = |path, frontmatter, files| {
        Server::builder().skills(&[SkillDef::new(path, frontmatter, files)])
    };
    assert_eq!(
        refusal(skill("Pack", r#"{"name":"Pack","description":"x"}"#, MD)),
        "skill \"skill://Pack/SKILL.md\": the skill name \"Pack\" is 1 to 64 lowercase letters, digits and single hyphens (not first or last), as the Agent Skills format says"
    );
    assert_eq!(
        refusal(skill("pack", r#"{"name":"other","description":"x"}"#, MD)),
        "skill \"skill://pack/SKILL.md\": its frontmatter's name must be \"pack\", the last segment of its path"
    );
    assert_eq!(
        refusal(skill("pack", r#"{"name":"pack"}"#, MD)),
        "skill \"skill://pack/SKILL.md\": its frontmatter has no description"
    );
    assert_eq!(
        refusal(skill("pack", r#"{"name":"pack","description":"x"}"#, &[])),
        "skill \"skill://pack/SKILL.md\": it has no SKILL.md"
    );
    const ESCAPING: &[SkillFile] = &[
        SkillFile::new("SKILL.md", b"", "text/markdown"),
        SkillFile::new("../other/x.md", b"", "text/markdown"),
    ];
    assert_eq!(
        refusal(skill(
            "pack",
            r#"{"name":"pack","description":"x"}"#,
            ESCAPING
        )),
        "skill \"skill://pack/SKILL.md\": the file path \"../other/x.md\" is not a relative path of names of letters, digits, -, ., _ and ~ (each stands in a skill:// URI as it is)"
    );
    assert_eq!(
        refusal(skill("a//pack", r#"{"name":"pack","description":"x"}"#, MD)),
        "skill \"skill://a//pack/SKILL.md\": its path \"a//pack\" is one or more /-separated segments of letters, digits, -, ., _ and ~"
    );
    // A resource (or template) of the host may not answer a skill's file instead of it.
    let shadow = template("skill://pack/{file}", &["file"]);
    let b = Server::builder().resource(shadow).skills(&[SkillDef::new(
        "pack",
        r#"{"name":"pack","description":"x"}"#,
        MD,
    )]);
    assert_eq!(
        refusal(b),
        "skill \"skill://pack/SKILL.md\": the resource \"skill://pack/{file}\" answers this file's URI too; a skill's files are served from its folder, so no resource may answer them"
    );
    let twice = SkillDef::new("pack", r#"{"name":"pack","description":"x"}"#, MD);
    assert_eq!(
        refusal(Server::builder().skills(&[twice, twice])),
        "skill \"skill://pack/SKILL.md\": it is declared more than once"
    );
}

/// MCP Apps: a tool's view is a `ui://` resource of the server, every `ui://` resource is a
/// view of the extension's type, and a view's origins are origins.
#[test]
fn app_views_and_links_are_refused_by_the_extensions_rules() {
    use beam_mcp::app::{AppView, Csp, ToolUi};
    const VIEW: ResourceDef = ResourceDef::new("ui://demo/card", "card", read)
        .with_app(AppView::NONE)
        .declared_at("hand", "hand.rs", 3);
    let linked = |uri: &'static str| echo::DEF.with_ui(ToolUi::new(uri));

    // The view exists: served.
    assert!(
        Server::builder()
            .resource(VIEW)
            .tool(linked("ui://demo/card"))
            .build()
            .is_ok()
    );
    assert_eq!(
        refusal(
            Server::builder()
                .resource(VIEW)
                .tool(linked("ui://demo/other"))
        ),
        "tool \"echo\": its view \"ui://demo/other\" is not a resource of this server; declare it with #[resource(\"ui://demo/other\", app(...))]"
    );
    assert_eq!(
        refusal(Server::builder().tool(linked("app://demo/card"))),
        "tool \"echo\": its view \"app://demo/card\": an app's URI starts with ui:// (ui://server/view)"
    );
    // A ui:// resource that is not a view, a view elsewhere, a view of another type.
    assert_eq!(
        refusal(Server::builder().resource(ResourceDef::new("ui://demo/card", "card", read))),
        "resource \"ui://demo/card\": a ui:// resource is an MCP Apps view: declare it with app(...) (ResourceDef::with_app)"
    );
    assert_eq!(
        refusal(Server::builder().resource(RESOURCE.with_app(AppView::NONE))),
        "resource \"app://one\": an app's URI starts with ui:// (ui://server/view)"
    );
    assert_eq!(
        refusal(Server::builder().resource(VIEW.with_mime_type("text/html"))),
        "resource \"ui://demo/card\": a view's MIME type is \"text/html;profile=mcp-app\", not \"text/html\""
    );
    // Origins that would widen or break the policy a host writes from them.
    let csp = |domains: &'static [&'static str]| {
        VIEW.with_app(AppView::NONE.with_csp(Csp::NONE.with_connect_domains(domains)))
    };
    assert_eq!(
        refusal(Server::builder().resource(csp(&["https://a.example; script-src *"]))),
        "resource \"ui://demo/card\": csp connectDomains \"https://a.example; script-src *\": a CSP domain is an origin: https://host, wss://host:port or https://*.host"
    );
    assert_eq!(
        refusal(Server::builder().resource(csp(&["*"]))),
        "resource \"ui://demo/card\": csp connectDomains \"*\": a CSP domain is an origin: https://host, wss://host:port or https://*.host"
    );
    assert_eq!(
        refusal(Server::builder().resource(csp(&["https://a.example", "https://a.example"]))),
        "resource \"ui://demo/card\": csp connectDomains names \"https://a.example\" twice"
    );
    // A view is one URI: a template cannot be linked to.
    let templated = ResourceDef::new("ui://demo/{id}", "card", read)
        .with_parameters(&["id"])
        .with_app(AppView::NONE);
    assert_eq!(
        refusal(Server::builder().resource(templated)),
        "resource \"ui://demo/{id}\": an app's URI is one URI, not a template: a tool links to exactly one view"
    );
}
