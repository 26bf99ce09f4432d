"""The rules tab: the permission rules pane and the settings edits it makes."""
