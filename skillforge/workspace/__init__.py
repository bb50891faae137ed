"""Which skills a path holds, the file watcher and the headless live-lint loop."""
