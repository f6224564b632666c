"""Generated notes: context notes, index notes, the conflicts report and graph exports."""
