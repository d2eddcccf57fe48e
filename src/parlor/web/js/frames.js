// The server's state frames (docs/protocol.md, "state"), as whole states. The first state on a
// connection (and the answer to a sync) is the whole state; after that the server sends a delta: the
// parts that changed since the state it names ("base": that state's "seq"), the new events and the
// clocks. A delta whose base this page does not hold is not applied: the caller asks for a sync.

/** The whole state after `frame`, given the last whole state (or null); null if it cannot be applied. */
export function applyState(previous, frame) {
  if (!("delta" in frame)) return frame;
  if (!previous || previous.seq !== frame.base) return null;
  const state = { ...previous };
  for (const [key, value] of Object.entries(frame.delta)) {
    if (key === "view") state.view = { ...state.view, ...value };
    else if (key === "view_removed") {
      const view = { ...state.view };
      for (const gone of value) delete view[gone];
      state.view = view;
    } else state[key] = value;
  }
  for (const key of ["seq", "version", "cause", "events", "clocks"]) state[key] = frame[key];
  return state;
}
