// The part of @xmpp/client 0.13 (no types of its own) that the fan-out bench uses.
declare module '@xmpp/client' {
  export interface Element {
    name: string;
    attrs: Record<string, string | undefined>;
    getChild(name: string, xmlns?: string): Element | undefined;
    getChildText(name: string, xmlns?: string): string | null;
    is(name: string, xmlns?: string): boolean;
    toString(): string;
  }
  export interface XmppClient {
    start(): Promise<unknown>;
    stop(): Promise<unknown>;
    send(element: Element): Promise<void>;
    on(event: 'stanza', listener: (stanza: Element) => void): void;
    on(event: 'error', listener: (error: Error) => void): void;
    on(event: 'offline' | 'online', listener: () => void): void;
    iqCaller: { request(element: Element, timeout?: number): Promise<Element> };
  }
  export function client(options: { service: string; domain: string; username: string; password: string; resource?: string }): XmppClient;
  export function xml(name: string, attrs?: Record<string, string>, ...children: (Element | string)[]): Element;
}
