"""The catalog: where skills are found (locations, scan/, sources/ with plugins/), how one file is
read (skillfile, frontmatter/, fields/, filediagnostics), the vocabulary (model, diagnostics) and
the assembled Catalog with its clashes (assembly); loadcache keeps what a reload may reuse.
May import base/, and permissions/settings (the settings files say which plugins load)."""
