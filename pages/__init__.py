"""The dashboard's pages (each .py file here is one, declared in app.py) and what they share
(pages/ui/).

This file makes ``pages`` a regular package rather than a namespace package. Streamlit watches
the folder of every namespace package it finds in ``sys.modules`` under the app's folder, and
takes any file written beneath that folder for a change of the app: the bytecode Python writes
to pages/ui/__pycache__ when a view first imports one of pages/ui's modules showed "File change.
Rerun" in the first session after a fresh start. Streamlit never lists ``__init__.py`` as a
page.
"""
