/**
 * The next turn of the event loop, by a message port: a test's fake clock (`vi.useFakeTimers()`, installed even
 * before this module loads) fakes `setImmediate` and `setTimeout`, never a port, and a store's answers must not
 * wait for a clock someone has to advance. The port holds the process open only while a turn is awaited.
 * `nextTurn(run)` returns a function that asks for one call of `run` on the next turn.
 */
export function nextTurn(run: () => void): () => void {
  type Held = { ref?(): void; unref?(): void };
  let channel: MessageChannel | undefined;
  return () => {
    if (!channel) {
      const opened = new MessageChannel();
      opened.port1.onmessage = () => {
        (opened.port1 as unknown as Held).unref?.();
        run();
      };
      channel = opened;
    }
    (channel.port1 as unknown as Held).ref?.();
    channel.port2.postMessage(null);
  };
}
