"""Tests of the pure pairing package: Swiss, round robin and standings, without the store."""
