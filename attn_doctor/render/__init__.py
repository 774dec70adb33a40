"""Renderers: views of one Report (text, json, and the CI formats)."""
