//! Skills added to and removed from a live catalog: served at once by `skills/list`,
//! `skills/get` and `resources/read`, at both revisions; refused when the server does not
//! declare the extension.

use beam_mcp::skill::{SkillDef, SkillFile};
use beam_mcp::testing::TestClient;
use beam_mcp::{LiveError, Server};
use serde_json::json;

const NOTES: SkillDef = SkillDef::new(
    "team/notes",
    r#"{"name":"notes","description":"Take meeting notes."}"#,
    &[SkillFile::new(
        "SKILL.md",
        b"---\nname: notes\ndescription: Take meeting notes.\n---\nWrite the decisions first.\n",
        "text/markdown",
    )],
);

#[tokio::test]
async fn a_skill_added_live_is_served_at_both_revisions_and_goes_when_removed() {
    let (builder, live) = Server::builder().skills(&[]).live();
    let server = builder.build().unwrap();
    let mut modern = TestClient::new(server.clone());
    let mut legacy = TestClient::legacy(server).await.unwrap();
    for client in [&mut modern, &mut legacy] {
        let listed = client.request("skills/list", json!({})).await.unwrap();
        assert_eq!(listed["skills"], json!([]));
    }
    live.add_skill(NOTES).unwrap();
    for client in [&mut modern, &mut legacy] {
        let listed = client.request("skills/list", json!({})).await.unwrap();
        assert_eq!(listed["skills"][0]["uri"], "skill://team/notes/SKILL.md");
        assert_eq!(listed["skills"][0]["frontmatter"]["name"], "notes");
        let got = client
            .request(
                "skills/get",
                json!({ "uri": "skill://team/notes/SKILL.md" }),
            )
            .await
            .unwrap();
        assert_eq!(got["skill"], listed["skills"][0]);
        let read = client
            .request(
                "resources/read",
                json!({ "uri": "skill://team/notes/SKILL.md" }),
            )
            .await
            .unwrap();
        assert_eq!(
            read["contents"][0]["text"],
            "---\nname: notes\ndescription: Take meeting notes.\n---\nWrite the decisions first.\n"
        );
    }
    live.remove_skill("team/notes").unwrap();
    let listed = modern.request("skills/list", json!({})).await.unwrap();
    assert_eq!(listed["skills"], json!([]));
    assert!(matches!(
        live.remove_skill("team/notes"),
        Err(LiveError::NotFound { kind: "skill", .. })
    ));
    // A broken skill is refused in the build's words, and the catalog keeps what it had.
    live.add_skill(NOTES).unwrap();
    let broken = SkillDef::new("bad", r#"{"name":"other","description":"x"}"#, NOTES.files);
    let refused = live.add_skill(broken).unwrap_err().to_string();
    assert_eq!(
        refused,
        "skill \"skill://bad/SKILL.md\": its frontmatter's name must be \"bad\", the last segment of its path"
    );
    let listed = modern.request("skills/list", json!({})).await.unwrap();
    let uris: Vec<&str> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["skill://team/notes/SKILL.md"]);
}

#[tokio::test]
async fn a_server_without_skills_declares_no_extension_and_takes_none_live() {
    let (builder, live) = Server::builder().live();
    let server = builder.build().unwrap();
    assert!(matches!(
        live.add_skill(NOTES),
        Err(LiveError::SkillsNotDeclared)
    ));
    let mut client = TestClient::new(server);
    let refused = client.request("skills/list", json!({})).await.unwrap_err();
    assert!(refused.to_string().contains("-32601"), "{refused}");
}
