const SKILLS: &[beam_mcp::skill::SkillDef] = beam_mcp::skills!("no-such-folder");

fn main() {
    let _ = beam_mcp::Server::builder().skills(SKILLS);
}
