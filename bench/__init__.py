"""Benchmarks for frisian-companion (not part of the product)."""
