"""The built-in agent: a tool-calling loop over any model client, and its sandbox tools."""
