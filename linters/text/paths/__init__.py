"""The readings of a path written in a skill's text (SF116, SF301 and the command rules).

What a path is, whether it exists, and, when it is missing, whether the words around it
say it was never meant as a file of the skill.

Reading a path off the text:
- `path_refs`: what counts as a reference to a file of the skill (a link target, a path in
  a code span or in prose), cleaned to a checkable path.
- `link_resolver`: does the referenced path exist (in the skill, beside it, around it)?
- `siblings`: is it a file of a sibling skill the text names, found on disk beside this one?

Judging a missing path, the sentence around it first:
- `path_context`: does the text present the path as a file of the skill to read or run
  (not an example, an output, a deleted or coming-soon entry)? Its `Paragraph` is the
  sentence reader the modules below share.
- `matches_before`: the memo behind `Paragraph`: is a pattern found before each of many
  offsets of one sentence?

Whose path is it, when it is not the skill's:
- `path_owner`: the file a caption over a block names, a file the skill scaffolds from its
  template, a template skill's or an example's copy in the user's project, a file of the
  plugin's root or of another skill.
- `project_paths`: a file of the user's project (or of a project the skill describes).
- `project_layout`: a script of the user's project whose layout the skill documents (the
  scaffold's file, one a Make target runs, a folder a scaffold or a shown Makefile uses).
- `release_paths`: a file of another release, version or archive, or of the plugin.
- `owner_roots`: the plugin's or the repository's file, by the words ("the plugin's
  `references/x.md`") or as a cited source, found at the plugin's root or repository's top.
- `other_roots`: a file under another root the sentence states, in the agent's memory, to be
  written, or a name pattern to fill in.
- `artefact_paths`: a file inside an APK, binary, image or archive the skill analyses.
- `optional_paths`: a file the agent reads only if it exists.
- `listed_aside`: an entry of a list of files not written yet, of what a run writes
  ("Write findings to:") or of what the skill no longer ships ("## Removed capabilities").
- `local_files`: the user's own local file (a `.env`, a file kept out of git or one the
  user provides).
- `shared_helpers`: a helper several skills of a collection share, kept outside each.
- `other_skill_links`: a link slot, another skill to install, a sibling in another layout.
- `plugin_starter`: a starter skill's link to the `CONNECTORS.md` of the plugin it is
  copied into.
- `outside_home`: a folder SKILL.md places outside the skill's own.
- `run_folder`: a `./` file of the folder the skill runs in, listed under "## Workspace"
  (or "Inputs", "Working directory", a "Workspace layout:" list) or written by its steps.
- `run_outputs`: a file a run writes: the output of a skill, command or script the words
  name, or a file a sibling skill's steps write.

These import only the readers one level up (`compiled_regex`, `markdown`, `sections`,
`literal_search`) and the skill model; nothing there imports back.
"""
