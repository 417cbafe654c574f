// The table's voice rooms (docs/voice.md): audio between the seats' phones, every
// phone linked to every other (WebRTC), signalled over the table's own socket as
// {"voice": …} frames. Every push carries this seat's rights (#voice-rights): per
// room, whether it may talk and hear, and who may speak to the table. A room it may
// not talk in gets no packets from its microphone (the sender's track is null), and
// a peer that may not speak is not played. The bar looks the same for every seat:
// nothing on it says where the microphone reaches.
(function () {
  "use strict";

  var bar = document.getElementById("voice-bar");
  if (!bar) return;
  var joinButton = bar.querySelector("[data-voice-join]");
  var muteButton = bar.querySelector("[data-voice-mute]");
  var holdButton = bar.querySelector("[data-voice-hold]");
  var statusLine = bar.querySelector("[data-voice-status]");
  var speakers = document.getElementById("voice-audio");
  bar.hidden = false;

  var ROOMS = ["table", "team"];
  var MAX_BITRATE = 32000;
  var MIC = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };
  var supported = !!(window.RTCPeerConnection && navigator.mediaDevices &&
    navigator.mediaDevices.getUserMedia);

  var socket = null;
  var socketOpen = false;
  var rights = closedRights();
  var wanted = false; // the player tapped "join" and has not left
  var joined = {}; // room -> "asked" | "in"
  var ice = {};
  var mic = null; // the microphone's track, or null (listening only)
  var micStopped = false;
  var muted = false;
  var holding = false;
  var peers = {}; // room + ":" + seat -> Peer
  var state = "off";

  function closedRights() {
    return { table: { talk: false, hear: false, speakers: [] }, team: { talk: false, hear: false } };
  }
  function mayUse(room) {
    var found = rights[room] || {};
    return !!(found.talk || found.hear);
  }
  function anyRoom() {
    return ROOMS.some(mayUse);
  }

  // --- what the bar says -------------------------------------------------------
  function show(next) {
    if (next) state = next;
    var key = state;
    if (state === "on" && micStopped) key = "stopped";
    else if (state === "on" && !mic) key = "listening";
    if (!supported) key = "unsupported";
    statusLine.textContent = bar.getAttribute("data-" + key) || "";
    joinButton.textContent = joinButton.getAttribute(wanted ? "data-leave" : "data-join");
    joinButton.setAttribute("aria-pressed", wanted ? "true" : "false");
    joinButton.disabled = !supported || (!wanted && !anyRoom());
    muteButton.disabled = !wanted || !mic;
    holdButton.disabled = !wanted || !mic || !muted;
    muteButton.textContent = muteButton.getAttribute(muted ? "data-unmute" : "data-mute");
    muteButton.setAttribute("aria-pressed", muted ? "true" : "false");
    holdButton.setAttribute("aria-pressed", holding ? "true" : "false");
    bar.setAttribute("data-state", key);
  }

  // --- the socket ----------------------------------------------------------------
  function send(body) {
    // A frame is never queued for later: a signal sent while offline would be stale.
    if (!socket || !socketOpen) return false;
    socket.sendImmediately(JSON.stringify({ voice: body }));
    return true;
  }

  document.body.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    socketOpen = true;
    if (wanted) {
      // A new socket is a new voice session: every connection is made again.
      closeAll();
      joined = {};
      joinRooms();
      show("connecting");
    }
  });
  function offline() {
    socketOpen = false;
    if (wanted) show("offline");
  }
  document.body.addEventListener("htmx:wsClose", offline);
  document.body.addEventListener("htmx:wsError", offline);

  document.body.addEventListener("htmx:wsBeforeMessage", function (event) {
    var text = event.detail && event.detail.message;
    if (typeof text !== "string" || text.lastIndexOf('{"voice"', 0) !== 0) return;
    event.preventDefault(); // not HTML: htmx swaps nothing
    var body;
    try {
      body = JSON.parse(text).voice;
    } catch (e) {
      return;
    }
    if (body && typeof body === "object") heard(body);
  });
  document.body.addEventListener("htmx:wsAfterMessage", readRights);

  function readRights() {
    var element = document.getElementById("voice-rights");
    if (!element) return;
    var text = element.getAttribute("data-rights");
    if (element._read === text) return;
    element._read = text;
    try {
      rights = JSON.parse(text) || closedRights();
    } catch (e) {
      rights = closedRights();
    }
    rightsChanged();
  }

  function rightsChanged() {
    if (wanted) {
      ROOMS.forEach(function (room) {
        if (!mayUse(room) && joined[room]) dropRoom(room);
      });
      joinRooms();
    }
    Object.keys(peers).forEach(function (key) {
      peers[key].applyTrack();
      peers[key].applyPlayback();
    });
    show(wanted ? null : anyRoom() ? "off" : "closed");
  }

  // --- frames from the server ------------------------------------------------------
  function heard(body) {
    var room = body.room;
    var key = room + ":" + body.from;
    var peer = peers[key];
    switch (body.type) {
      case "joined":
        if (!wanted || joined[room] !== "asked") return;
        joined[room] = "in";
        ice = body.ice || {};
        if (room === "table") show("on");
        return;
      case "join": // a newcomer will offer
        if (joined[room] === "in") ensurePeer(room, body.from, body.session);
        return;
      case "peer": // present before this seat: offer to it unless it offers
        if (joined[room] !== "in") return;
        peer = ensurePeer(room, body.from, body.session);
        if (body.offer) peer.offer(false);
        return;
      case "offer":
        if (joined[room] !== "in") return;
        ensurePeer(room, body.from, body.session).takeOffer(body.sdp);
        return;
      case "answer":
        if (peer && peer.session === body.session) peer.takeAnswer(body.sdp);
        return;
      case "candidate":
        if (peer && peer.session === body.session) peer.addCandidate(body.candidate);
        return;
      case "leave":
        if (peer && peer.session === body.session) peer.close();
        return;
      case "replaced":
        stop();
        show("replaced");
        return;
      case "error":
        if (window.console) console.warn("voice:", body.message);
        return;
    }
  }

  // --- one peer: one connection, one promise chain, one <audio> ------------------------
  function ensurePeer(room, seat, session) {
    var key = room + ":" + seat;
    var peer = peers[key];
    if (peer && peer.session === session) return peer;
    if (peer) peer.close();
    peer = peers[key] = new Peer(room, seat, session);
    return peer;
  }

  function Peer(room, seat, session) {
    var self = this;
    this.room = room;
    this.seat = seat;
    this.session = session;
    this.key = room + ":" + seat;
    this.offerer = false;
    this.closed = false;
    this.failures = 0; // times the connection failed
    this.restarts = 0; // ICE restarts this side offered
    this.transceiver = null;
    this.chain = Promise.resolve();
    this.pc = new RTCPeerConnection(ice);
    this.audio = document.createElement("audio");
    this.audio.autoplay = true;
    this.audio.setAttribute("playsinline", "");
    speakers.appendChild(this.audio);
    this.applyPlayback();
    this.pc.onicecandidate = function (event) {
      if (!event.candidate || !event.candidate.candidate) return;
      send({ type: "candidate", room: room, to: seat, session: session, candidate: event.candidate.toJSON() });
    };
    this.pc.ontrack = function (event) {
      self.audio.srcObject = event.streams && event.streams[0] ? event.streams[0] : new MediaStream([event.track]);
      var playing = self.audio.play();
      if (playing && playing.catch) playing.catch(function () { /* the next tap starts it */ });
    };
    this.pc.onconnectionstatechange = function () {
      if (self.pc.connectionState !== "failed") return;
      self.failures += 1;
      if (self.offerer) {
        self.restarts += 1;
        self.offer(true);
      }
    };
  }

  Peer.prototype.run = function (step) {
    var self = this;
    this.chain = this.chain.then(function () {
      if (!self.closed) return step();
    }).catch(function (error) {
      if (window.console) console.warn("voice:", error);
    });
    return this.chain;
  };

  Peer.prototype.offer = function (restart) {
    var self = this;
    this.offerer = true;
    return this.run(function () {
      if (!self.transceiver) {
        self.transceiver = self.pc.addTransceiver("audio", { direction: "sendrecv" });
        self.applyTrack();
      }
      return self.pc.createOffer(restart ? { iceRestart: true } : undefined).then(function (offer) {
        return self.pc.setLocalDescription(offer);
      }).then(function () {
        send({ type: "offer", room: self.room, to: self.seat, session: self.session, sdp: self.pc.localDescription.sdp });
      });
    });
  };

  Peer.prototype.takeOffer = function (sdp) {
    var self = this;
    return this.run(function () {
      return self.pc.setRemoteDescription({ type: "offer", sdp: sdp }).then(function () {
        if (!self.transceiver) {
          self.transceiver = self.pc.getTransceivers()[0] || null;
          if (self.transceiver) self.transceiver.direction = "sendrecv";
        }
        self.applyTrack();
        return self.pc.createAnswer();
      }).then(function (answer) {
        return self.pc.setLocalDescription(answer);
      }).then(function () {
        send({ type: "answer", room: self.room, to: self.seat, session: self.session, sdp: self.pc.localDescription.sdp });
        self.capBitrate();
      });
    });
  };

  Peer.prototype.takeAnswer = function (sdp) {
    var self = this;
    return this.run(function () {
      if (self.pc.signalingState !== "have-local-offer") return;
      return self.pc.setRemoteDescription({ type: "answer", sdp: sdp }).then(function () {
        self.capBitrate();
      });
    });
  };

  Peer.prototype.addCandidate = function (candidate) {
    var self = this;
    return this.run(function () {
      if (candidate && candidate.candidate) return self.pc.addIceCandidate(candidate);
    });
  };

  // Talk only where this seat may, and only while not muted (or while holding to talk):
  // a null track sends no packets at all.
  // One replaceTrack at a time, and the state read again when it is done: a sender's
  // track changes only once its replaceTrack resolves, so a mute clicked while the mic
  // was still being put on found the old (null) track, changed nothing, and the mic
  // went on after it, sending while muted.
  Peer.prototype.applyTrack = function () {
    if (!this.transceiver || this.closed) return;
    if (this.replacing) return; // the running replaceTrack applies the state when done
    var talk = (rights[this.room] || {}).talk && mic && !micStopped && (!muted || holding);
    var track = talk ? mic : null;
    var self = this;
    if (this.transceiver.sender.track === track) return;
    this.replacing = true;
    this.transceiver.sender.replaceTrack(track).then(function () {
      self.replacing = false;
      self.applyTrack();
    }, function () {
      self.replacing = false; // closed meanwhile: nothing to send on
    });
  };

  // Play a peer only while this seat may hear the room and the peer may speak in it.
  Peer.prototype.applyPlayback = function () {
    var room = rights[this.room] || {};
    var speaking = this.room !== "table" || (room.speakers || []).indexOf(this.seat) >= 0;
    this.audio.muted = !(room.hear && speaking);
  };

  Peer.prototype.capBitrate = function () {
    var sender = this.transceiver && this.transceiver.sender;
    if (!sender || !sender.getParameters) return;
    var parameters = sender.getParameters();
    if (!parameters.encodings || !parameters.encodings.length) return;
    parameters.encodings.forEach(function (encoding) { encoding.maxBitrate = MAX_BITRATE; });
    sender.setParameters(parameters).catch(function () { /* renegotiating */ });
  };

  Peer.prototype.close = function () {
    if (this.closed) return;
    this.closed = true;
    this.pc.close();
    this.audio.srcObject = null;
    this.audio.remove();
    if (peers[this.key] === this) delete peers[this.key];
  };

  function closeAll(room) {
    Object.keys(peers).forEach(function (key) {
      if (!room || peers[key].room === room) peers[key].close();
    });
  }

  // --- joining and leaving -------------------------------------------------------------
  function joinRooms() {
    ROOMS.forEach(function (room) {
      if (mayUse(room) && !joined[room] && send({ type: "join", room: room })) {
        joined[room] = "asked";
      }
    });
  }

  function dropRoom(room) {
    // The rights closed it: the server knows that by itself.
    delete joined[room];
    closeAll(room);
  }

  function takeMic() {
    return navigator.mediaDevices.getUserMedia({ audio: MIC, video: false }).then(function (stream) {
      var track = stream.getAudioTracks()[0] || null;
      if (mic && mic !== track) mic.stop();
      mic = track;
      micStopped = false;
      if (track) {
        track.addEventListener("ended", function () {
          if (mic === track) { micStopped = true; everyTrack(); show(); }
        });
        track.addEventListener("mute", function () {
          if (mic === track) { micStopped = true; everyTrack(); show(); }
        });
        track.addEventListener("unmute", function () {
          if (mic === track) { micStopped = false; everyTrack(); show(); }
        });
      }
    }, function () {
      mic = null; // listening only
    });
  }

  function everyTrack() {
    Object.keys(peers).forEach(function (key) { peers[key].applyTrack(); });
  }

  function stop() {
    ROOMS.forEach(function (room) {
      if (joined[room]) send({ type: "leave", room: room });
    });
    wanted = false;
    joined = {};
    closeAll();
    if (mic) mic.stop();
    mic = null;
    micStopped = false;
    holding = false;
  }

  joinButton.addEventListener("click", function () {
    if (wanted) {
      stop();
      show("off");
      return;
    }
    wanted = true;
    show("connecting");
    takeMic().then(function () {
      if (!wanted) return;
      joinRooms();
      show(socketOpen ? "connecting" : "offline");
    });
  });

  muteButton.addEventListener("click", function () {
    muted = !muted;
    everyTrack();
    show();
  });

  function hold(on) {
    if (holding === on || (on && (!wanted || !muted))) return;
    holding = on;
    everyTrack();
    show();
  }
  holdButton.addEventListener("pointerdown", function (event) { event.preventDefault(); hold(true); });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (name) {
    holdButton.addEventListener(name, function () { hold(false); });
  });
  holdButton.addEventListener("keydown", function (event) {
    if (event.key === " " || event.key === "Enter") { event.preventDefault(); hold(true); }
  });
  holdButton.addEventListener("keyup", function () { hold(false); });

  // A phone that suspended the microphone in the background gets it back on return.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wanted && mic && micStopped) {
      takeMic().then(function () { everyTrack(); show(); });
    }
  });

  // What the tests and the benchmark read: this seat's connections, by room and seat.
  window.podpolyeVoice = {
    connections: function () {
      return Object.keys(peers).map(function (key) {
        var peer = peers[key];
        var sender = peer.transceiver && peer.transceiver.sender;
        return { room: peer.room, seat: peer.seat, state: peer.pc.connectionState,
          sending: !!(sender && sender.track), offerer: peer.offerer,
          failures: peer.failures, restarts: peer.restarts };
      });
    },
    stats: function () {
      return Promise.all(Object.keys(peers).map(function (key) {
        var peer = peers[key];
        return peer.pc.getStats().then(function (report) {
          var found = { room: peer.room, seat: peer.seat, state: peer.pc.connectionState,
            packetsReceived: 0, packetsSent: 0, bytesReceived: 0, bytesSent: 0,
            totalAudioEnergy: 0, relayed: false, localType: null, remoteType: null };
          var pairs = {};
          report.forEach(function (entry) {
            if (entry.type === "inbound-rtp" && entry.kind === "audio") {
              found.packetsReceived += entry.packetsReceived || 0;
              found.totalAudioEnergy += entry.totalAudioEnergy || 0;
              found.bytesReceived += (entry.bytesReceived || 0) + (entry.headerBytesReceived || 0);
            }
            if (entry.type === "outbound-rtp" && entry.kind === "audio") {
              found.packetsSent += entry.packetsSent || 0;
              found.bytesSent += (entry.bytesSent || 0) + (entry.headerBytesSent || 0);
            }
            pairs[entry.id] = entry;
          });
          report.forEach(function (entry) {
            if (entry.type === "candidate-pair" && entry.nominated && entry.state === "succeeded") {
              var local = pairs[entry.localCandidateId];
              if (local && local.candidateType === "relay") found.relayed = true;
            }
            // The pair the transport carries the audio on now: its two ends' kinds
            // (host, srflx, prflx, relay).
            var selected = entry.type === "transport" && pairs[entry.selectedCandidatePairId];
            if (selected) {
              var near = pairs[selected.localCandidateId] || {};
              var far = pairs[selected.remoteCandidateId] || {};
              found.localType = near.candidateType || null;
              found.remoteType = far.candidateType || null;
            }
          });
          return found;
        });
      }));
    }
  };

  readRights();
  show(anyRoom() ? "off" : "closed");
})();
