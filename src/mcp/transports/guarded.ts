import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { asMessage, checkParams, isRequest, type RequestId } from "../jsonrpc-checks.js";

/**
 * Wraps the transport a `Server` connects to, between the transport and the SDK's dispatch: a request to a served
 * method whose params do not fit its schema is answered -32602 here (through the transport, so that an HTTP
 * transport routes the answer to the request's own response) and never reaches its handler. It also notes the
 * protocol version the session negotiated, from the server's answer to `initialize`.
 */
export class GuardedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** The protocol version of the last `initialize` answered; null before. */
  protocolVersion: string | null = null;
  private readonly initializeIds = new Set<RequestId>();

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    // The inner transport's own handlers, set before it was wrapped (a session table's), keep running.
    const { onclose, onerror } = this.inner;
    this.inner.onclose = () => {
      onclose?.();
      this.onclose?.();
    };
    this.inner.onerror = (error) => {
      onerror?.(error);
      this.onerror?.(error);
    };
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    await this.inner.start();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isRequest(message)) {
      const refusal = checkParams(message);
      if (refusal) {
        this.inner.send(asMessage(refusal)).catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
        return;
      }
      if (message.method === "initialize") this.initializeIds.add(message.id);
    }
    this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answered = "id" in message && !("method" in message) && message.id !== undefined && this.initializeIds.delete(message.id);
    if (answered && "result" in message) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") this.protocolVersion = version;
    }
    await this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
