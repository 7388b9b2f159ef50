"""Packaging the grader for other platforms: Gradescope, CI templates."""
