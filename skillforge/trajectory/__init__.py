"""Facts read off ATIF trajectories: activations, script runs, shell lines, digests, side-by-side data."""
