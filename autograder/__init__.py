"""Sandboxed autograder for the course unit "Tokens y embeddings" (see README.md)."""
