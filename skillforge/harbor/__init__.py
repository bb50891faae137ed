"""The Harbor bridge (DESIGN.md "Scale-out"): paired trials as a Harbor dataset, and Harbor's
job results back into the run store.

- `skillforge.harbor.export`: one Harbor task per (case, condition), staged by the same code
  as local trials (skillforge.trials.staging), so the leakage guarantees are the same.
- `skillforge.harbor.importer`: a Harbor job folder into a stored run (engine "harbor"),
  with ATIF trajectories, grader rewards and the deterministic metrics, so `skillforge
  report` and the workbench read it like a local run.

Harbor itself (Python >= 3.12) is never imported here: its files are read and written
through skillforge's own models (`task_model`, `manifest`, `results`).
"""
