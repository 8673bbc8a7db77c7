"""Where the servers run: a server as the sweep drives it (servers), here or on its host through the
lab's agent (channel, agent), the step monitors across hosts (watch), and each host's versions and
machine (inventory)."""
