"""The process's tools every layer may use: work started in the background, when reference
cycles are collected, group commit, and the operators' metrics."""
