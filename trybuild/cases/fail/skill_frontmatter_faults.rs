// A skill whose frontmatter has no description, and one whose description is over 1024
// characters: each refused at compile time (the folders beside this file, named from it).
const MISSING: &[beam_mcp::skill::SkillDef] = beam_mcp::skills!("./skills");
const OVERSIZE: &[beam_mcp::skill::SkillDef] = beam_mcp::skills!("./skills-long");

fn main() {
    let _ = beam_mcp::Server::builder().skills(MISSING).skills(OVERSIZE);
}
