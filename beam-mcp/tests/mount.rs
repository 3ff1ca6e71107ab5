//! Composition: catalogs mounted under prefixes (`ServerBuilder::mount`) and named catalogs
//! (`#[tool(catalog = "..")]`), served at both revisions through the in-process client: the
//! names and URIs they are served by, every item reaching its own handler with its schema,
//! annotations, completions and state, middleware seeing both names, and each refusal of
//! `build()` in its exact words.

use std::sync::{Arc, Mutex};

use beam_mcp::middleware::{self, Call, Next};
use beam_mcp::testing::TestClient;
use beam_mcp::{BuildError, MountError, Origin, Server, ServerBuilder, State};
use serde_json::{Value, json};

/// Finds notes.
#[beam_mcp::tool(read_only, tags = ["search"])]
fn search(
    /// What to look for.
    text: String,
) -> String {
    format!("note about {text}")
}

/// Finds files: a named catalog's `search`, so it does not clash with the crate's own.
#[beam_mcp::tool(name = "search", catalog = "files")]
fn search_files(text: String, limit: Option<u32>) -> String {
    format!("file about {text} (at most {})", limit.unwrap_or(10))
}

/// Greets.
#[beam_mcp::tool]
fn hello() -> String {
    "hello".into()
}

/// How many notes the store holds.
#[derive(Clone)]
struct Store(u32);

/// Counts the notes.
#[beam_mcp::tool]
fn count(State(store): State<Store>) -> String {
    store.0.to_string()
}

/// Today's note.
#[beam_mcp::resource("notes://today")]
fn today() -> String {
    "nothing yet".into()
}

fn topics(prefix: &str) -> Vec<String> {
    ["rust", "ruby", "go"]
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// A note by topic.
#[beam_mcp::resource("notes://topic/{topic}", complete(topic = topics))]
fn topic(topic: String) -> String {
    format!("all about {topic}")
}

/// Not hierarchical.
#[beam_mcp::resource("urn:notes:index")]
fn index() -> String {
    "index".into()
}

/// Summarises a topic.
#[beam_mcp::prompt(complete(topic = topics))]
fn summary(
    /// Which topic.
    topic: String,
) -> String {
    format!("Summarise {topic}")
}

/// A named catalog's search, checked for clashes at compile time under `lib_search`.
#[beam_mcp::tool(catalog = "lib", name = "search")]
fn library_search(text: String) -> String {
    format!("book about {text}")
}

/// A named catalog's resource, at `books://lib/shelf`.
#[beam_mcp::resource("books://shelf", catalog = "lib")]
fn shelf() -> String {
    "three books".into()
}

/// A card to show a note on (an MCP Apps view).
#[beam_mcp::resource("ui://notes/card", app(prefers_border))]
fn card() -> String {
    "<!doctype html><p>card</p>".into()
}

/// Shows a note on its card.
#[beam_mcp::tool(ui = "ui://notes/card")]
fn show() -> String {
    "shown".into()
}

fn notes() -> ServerBuilder {
    Server::builder()
        .tool(search::DEF)
        .tool(count::DEF)
        .resource(today::DEF)
        .resource(topic::DEF)
        .prompt(summary::DEF)
}

fn composed() -> ServerBuilder {
    Server::builder()
        .tool(hello::DEF)
        .state(Store(3))
        .mount("notes", notes())
        .mount("files", Server::builder().tool(search_files::DEF))
}

async fn each_revision(server: impl Fn() -> Server) -> Vec<TestClient> {
    vec![
        TestClient::new(server()),
        TestClient::legacy(server()).await.unwrap(),
    ]
}

#[tokio::test]
async fn mounted_items_are_served_by_their_prefixed_names_as_they_were() {
    let alone = Server::builder().tool(search::DEF).build().unwrap();
    let original = TestClient::new(alone).list_tools().await.unwrap().remove(0);
    for mut client in each_revision(|| composed().build().unwrap()).await {
        let revision = client.revision();
        let tools = client.list_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["files_search", "hello", "notes_count", "notes_search"],
            "{revision:?}"
        );
        let mounted = tools.iter().find(|t| t.name == "notes_search").unwrap();
        assert_eq!(mounted.input_schema, original.input_schema);
        assert_eq!(mounted.annotations, original.annotations);
        assert_eq!(mounted.description, original.description);

        let called = |out: beam_mcp::testing::ToolOutcome| out.text();
        let note = client
            .call_tool("notes_search", json!({ "text": "rust" }))
            .await
            .unwrap();
        assert_eq!(called(note), "note about rust");
        let file = client
            .call_tool("files_search", json!({ "text": "rust", "limit": 2 }))
            .await
            .unwrap();
        assert_eq!(called(file), "file about rust (at most 2)");
        // Each mount's own schema is the one enforced.
        let refused = client
            .call_tool("notes_search", json!({ "text": "rust", "limit": 2 }))
            .await
            .unwrap();
        assert!(refused.is_error);
        assert_eq!(
            refused.text(),
            "notes_search: invalid arguments: unknown property: limit"
        );
        let unknown = client
            .call_tool("search", json!({ "text": "rust" }))
            .await
            .unwrap_err();
        assert!(unknown.to_string().contains("Unknown tool"), "{unknown}");
        // The mounted tool sees the server's state.
        let counted = client.call_tool("notes_count", json!({})).await.unwrap();
        assert_eq!(called(counted), "3");
    }
}

#[tokio::test]
async fn mounted_resources_prompts_and_completions_route_to_their_items() {
    for mut client in each_revision(|| composed().build().unwrap()).await {
        let listed = client.list_resources().await.unwrap();
        let uris: Vec<&str> = listed.iter().filter_map(|r| r["uri"].as_str()).collect();
        assert_eq!(uris, ["notes://notes/today"]);
        let templates = client
            .request("resources/templates/list", json!({}))
            .await
            .unwrap();
        assert_eq!(
            templates["resourceTemplates"][0]["uriTemplate"],
            "notes://notes/topic/{topic}"
        );

        let today = client.read_resource("notes://notes/today").await.unwrap();
        assert_eq!(today[0]["text"], "nothing yet");
        assert_eq!(today[0]["uri"], "notes://notes/today");
        let topic = client
            .read_resource("notes://notes/topic/rust")
            .await
            .unwrap();
        assert_eq!(topic[0]["text"], "all about rust");
        assert!(client.read_resource("notes://today").await.is_err());

        let prompt = client
            .get_prompt("notes_summary", [("topic", "go")])
            .await
            .unwrap();
        assert_eq!(prompt.text(), "Summarise go");

        let by_prompt = client
            .complete(
                json!({ "type": "ref/prompt", "name": "notes_summary" }),
                "topic",
                "r",
            )
            .await
            .unwrap();
        assert_eq!(by_prompt.values, ["rust", "ruby"]);
        let by_template = client
            .complete(
                json!({ "type": "ref/resource", "uri": "notes://notes/topic/{topic}" }),
                "topic",
                "g",
            )
            .await
            .unwrap();
        assert_eq!(by_template.values, ["go"]);
    }
}

#[tokio::test]
async fn uris_kept_and_mounts_within_mounts() {
    let kept = Server::builder()
        .mount_keeping_uris("notes", Server::builder().resource(today::DEF))
        .build()
        .unwrap();
    let mut client = TestClient::new(kept);
    let today = client.read_resource("notes://today").await.unwrap();
    assert_eq!(today[0]["text"], "nothing yet");

    let inner = Server::builder().mount("notes", notes());
    let outer = Server::builder()
        .state(Store(5))
        .mount("team", inner)
        .build()
        .unwrap();
    let mut client = TestClient::new(outer);
    let counted = client
        .call_tool("team_notes_count", json!({}))
        .await
        .unwrap();
    assert_eq!(counted.text(), "5");
    let today = client
        .read_resource("notes://team/notes/today")
        .await
        .unwrap();
    assert_eq!(today[0]["text"], "nothing yet");
}

#[tokio::test]
async fn middleware_sees_the_served_name_and_the_origin() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = {
        let seen = Arc::clone(&seen);
        middleware::from_fn(move |call: Call, next: Next| {
            let seen = Arc::clone(&seen);
            async move {
                if let Some(item) = call.item() {
                    seen.lock()
                        .unwrap()
                        .push((item.name().to_owned(), item.origin()));
                }
                next.run(call).await
            }
        })
    };
    let server = composed().middleware(record).build().unwrap();
    let mut client = TestClient::new(server);
    client
        .call_tool("notes_search", json!({ "text": "a" }))
        .await
        .unwrap();
    client.call_tool("hello", json!({})).await.unwrap();
    client.read_resource("notes://notes/today").await.unwrap();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            (
                "notes_search".to_owned(),
                Some(Origin {
                    prefix: "notes",
                    name: "search"
                })
            ),
            ("hello".to_owned(), None),
            (
                "notes://notes/today".to_owned(),
                Some(Origin {
                    prefix: "notes",
                    name: "notes://today"
                })
            ),
        ]
    );
}

#[tokio::test]
async fn named_catalogs_stay_out_of_crate_items_and_mount_under_their_names() {
    let module = module_path!();
    let plain = Server::builder()
        .crate_items(module)
        .state(Store(0))
        .build()
        .unwrap();
    let names: Vec<String> = TestClient::new(plain)
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert!(!names.iter().any(|n| n.contains("lib")), "{names:?}");
    assert!(names.contains(&"search".to_owned()), "{names:?}");

    let served = Server::builder()
        .crate_items(module)
        .state(Store(0))
        .mount_crate_catalogs(module)
        .build()
        .unwrap();
    let mut client = TestClient::new(served);
    let found = client
        .call_tool("lib_search", json!({ "text": "rust" }))
        .await
        .unwrap();
    assert_eq!(found.text(), "book about rust");
    let shelf = client.read_resource("books://lib/shelf").await.unwrap();
    assert_eq!(shelf[0]["text"], "three books");
}

fn refused(builder: ServerBuilder) -> (MountError, String) {
    match builder.build() {
        Err(BuildError::Mount(error)) => {
            let text = error.to_string();
            (error, text)
        }
        other => panic!("not a mount refusal: {:?}", other.map(|_| ())),
    }
}

#[test]
fn clashes_and_faults_are_refused_by_build_naming_both_sources() {
    let here = file!();
    let line_of = |needle: &str| {
        include_str!("mount.rs")
            .lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
            .unwrap()
    };
    let search_line = line_of("fn search(") - 1;
    let files_line = line_of("fn search_files(") - 1;
    let hello_line = line_of("fn hello()") - 1;

    let (_, text) = refused(
        Server::builder()
            .tool(hello::DEF.with_name("notes_search"))
            .mount("notes", Server::builder().tool(search::DEF)),
    );
    assert_eq!(
        text,
        format!(
            "tool \"notes_search\" is declared twice once mounted: by the server's own tool \"notes_search\" ({here}:{hello_line}) and by mount \"notes\"'s tool \"search\" ({here}:{search_line})"
        )
    );

    let (_, text) = refused(
        Server::builder()
            .mount("a_b", Server::builder().tool(search::DEF))
            .mount(
                "a",
                Server::builder().tool(search_files::DEF.with_name("b_search")),
            ),
    );
    assert_eq!(
        text,
        format!(
            "tool \"a_b_search\" is declared twice once mounted: by mount \"a_b\"'s tool \"search\" ({here}:{search_line}) and by mount \"a\"'s tool \"b_search\" ({here}:{files_line})"
        )
    );

    let (error, _) = refused(Server::builder().mount("no tes", notes()));
    assert!(matches!(error, MountError::Prefix { .. }));
    assert_eq!(
        error.to_string(),
        "mount prefix \"no tes\": a mount prefix is 1 to 32 ASCII letters, digits, `_` or `-`, starting with a letter"
    );

    let (_, text) =
        refused(Server::builder().mount("notes", Server::builder().resource(index::DEF)));
    assert_eq!(
        text,
        "mount \"notes\": resource \"urn:notes:index\" has no `//` after its scheme to put the prefix in; mount with mount_keeping_uris, or give it a URI such as `scheme://...`"
    );

    let (_, text) = refused(
        Server::builder()
            .state(Store(1))
            .mount("notes", notes().state(Store(2))),
    );
    assert_eq!(
        text,
        "both the server and mount \"notes\" were given host state of type mount::Store: give it once, to the server that mounts (mounted items see its state)"
    );

    let logged = middleware::from_fn(|call: Call, next: Next| next.run(call));
    let (_, text) = refused(Server::builder().mount("notes", notes().middleware(logged)));
    assert_eq!(
        text,
        "mount \"notes\" was given middleware, which a mounted catalog does not keep: give it to the server that mounts"
    );
    let (_, text) = refused(Server::builder().mount("notes", notes().live().0));
    assert!(text.contains("a live catalog"), "{text}");

    // A mounted item that needs state the server lacks is the catalog's refusal.
    let missing = Server::builder()
        .mount("notes", notes())
        .build()
        .unwrap_err();
    assert!(missing.to_string().contains("mount::Store"), "{missing}");
    // Kept URIs that clash are refused too.
    let (_, text) = refused(
        Server::builder()
            .resource(today::DEF)
            .mount_keeping_uris("notes", Server::builder().resource(today::DEF)),
    );
    assert!(
        text.starts_with("resource \"notes://today\" is declared twice once mounted"),
        "{text}"
    );
}

#[tokio::test]
async fn a_live_server_serves_its_mounts_and_changes_its_own_items() {
    let (builder, live) = composed().live();
    let server = builder.build().unwrap();
    let mut client = TestClient::new(server);
    live.add_tool(search::DEF).unwrap();
    let names: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(
        names,
        [
            "files_search",
            "hello",
            "notes_count",
            "notes_search",
            "search"
        ]
    );
    live.remove_tool("notes_search").unwrap();
    let gone = client
        .call_tool("notes_search", json!({ "text": "x" }))
        .await
        .unwrap_err();
    assert!(gone.to_string().contains("Unknown tool"), "{gone}");
    let still: Value = client
        .call_tool("files_search", json!({ "text": "x" }))
        .await
        .unwrap()
        .text()
        .into();
    assert_eq!(still, "file about x (at most 10)");
}

/// A tool's MCP Apps view moves with the mounted resource it names: the link is namespaced, so
/// `build()`'s check that it names a view of the catalog holds, and the view is read there.
#[tokio::test]
async fn a_mounted_tools_view_moves_with_it() {
    let cards = Server::builder().tool(show::DEF).resource(card::DEF);
    let server = Server::builder().mount("team", cards).build().unwrap();
    let mut client = TestClient::new(server);
    let listed = client.request("tools/list", json!({})).await.unwrap();
    assert_eq!(listed["tools"][0]["name"], "team_show");
    assert_eq!(
        listed["tools"][0]["_meta"]["ui"]["resourceUri"],
        "ui://team/notes/card"
    );
    let view = client.read_resource("ui://team/notes/card").await.unwrap();
    assert_eq!(view[0]["text"], "<!doctype html><p>card</p>");
    assert_eq!(view[0]["mimeType"], beam_mcp::app::MIME_TYPE);
    // Kept URIs keep the link as it was.
    let kept = Server::builder()
        .mount_keeping_uris(
            "team",
            Server::builder().tool(show::DEF).resource(card::DEF),
        )
        .build()
        .unwrap();
    let listed = TestClient::new(kept)
        .request("tools/list", json!({}))
        .await
        .unwrap();
    assert_eq!(
        listed["tools"][0]["_meta"]["ui"]["resourceUri"],
        "ui://notes/card"
    );
}
