"""Offline evaluation: the labeled memory-formation corpus, its harness and scoring."""
