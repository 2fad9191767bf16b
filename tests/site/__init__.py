"""Tests of the site modules on their own, without the store."""
