"""Sphinx configuration of the ssl_repro documentation (built by .ci/run with -W)."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))     # this checkout's ssl_repro, whichever one is installed

project = "ssl_repro"
author = "ssl_repro developers"
release = version = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip",
                    "auto_examples/*.json", "auto_examples/*.md5", "auto_examples/*.codeobj.json",
                    "results/summary.md"]     # the Results summary, included by the landing page
myst_heading_anchors = 3
# $...$ in the pages is math (the papers' quotes keep their $\nabla$ TSVM, $B(\nu)$), rendered by MathJax
myst_enable_extensions = ["dollarmath"]

autosummary_generate = True
templates_path = ["_templates"]
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

html_theme = "pydata_sphinx_theme"
html_title = "ssl_repro"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_static_path = ["_static"]
html_css_files = ["results.css"]      # compact tables on the Results pages

# The gallery runs every example during the build; the data are the package's embedded sets.
os.environ.setdefault("MPLBACKEND", "Agg")
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "within_subsection_order": "FileNameSortKey",
    "doc_module": ("ssl_repro",),
    "backreferences_dir": "generated/backreferences",
}
