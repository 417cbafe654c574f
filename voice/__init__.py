"""A table's voice rooms: in-browser audio between the seats (WebRTC, every phone
linked to every other), signalled over the table's own socket. See docs/voice.md."""
