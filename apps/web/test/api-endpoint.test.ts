// The calls typed by the OpenAPI document (src/lib/api.ts): `endpoint` builds the same requests as
// before (run here), and what the document does not describe is a type error (checked by
// `npm run typecheck -w @parla/web`, which covers this file: each `@ts-expect-error` line must fail
// to compile, for the one fault it names, while the line under "compiles" next to it passes).
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ChatMessage, GroupChat } from '@parla/contract/chat';
import type { Room } from '@parla/contract/rooms';
import { apiHref, call, endpoint, fetchOrThrow, type ApiAnswer, type ApiOperation, type ApiRequest } from '../src/lib/api';
import { succeeded } from '../src/lib/queries';

describe('endpoint', () => {
  it('fills in the path and passes query and body as the HTTP client takes them', () => {
    expect(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 3, id: 9 }, body: { content: 'Hola' } })).toEqual({
      method: 'PATCH',
      url: '/api/chat/3/messages/9/',
      data: { content: 'Hola' },
    });
    expect(endpoint('DELETE', '/api/rooms/{roomId}/participant/', { path: { roomId: 4 }, query: { permanent: true } })).toEqual({
      method: 'DELETE',
      url: '/api/rooms/4/participant/',
      params: { permanent: true },
    });
    expect(endpoint('GET', '/api/accounts/user/')).toEqual({ method: 'GET', url: '/api/accounts/user/' });
    const form = new FormData();
    const progress = () => undefined;
    expect(endpoint('POST', '/api/rooms/{roomId}/segments/', { path: { roomId: 2 }, body: form, onUploadProgress: progress, skipErrorCatalogue: true })).toEqual({
      method: 'POST',
      url: '/api/rooms/2/segments/',
      data: form,
      onUploadProgress: progress,
      skipErrorCatalogue: true,
    });
  });

  it('writes the address of a download', () => {
    expect(apiHref('/api/rooms/{roomId}/transcript/', { path: { roomId: 7 }, query: { format: 'srt' } })).toBe('/api/rooms/7/transcript/?format=srt');
  });
});

/** Never called: the type checker reads it. */
function _typedByTheDocument() {
  // compiles: the document's path, parameters and body, and a contract type its answer fits
  void call<ChatMessage>(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 1, id: 2 }, body: { content: 'x' } }));
  // @ts-expect-error a body field the document does not have
  void call<ChatMessage>(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 1, id: 2 }, body: { text: 'x' } }));
  // @ts-expect-error a body field of the wrong type
  void call<ChatMessage>(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 1, id: 2 }, body: { content: 42 } }));
  // @ts-expect-error a path the document does not have
  void call<ChatMessage>(endpoint('PATCH', '/api/chats/{groupChatId}/messages/{id}/', { path: { groupChatId: 1, id: 2 }, body: { content: 'x' } }));
  // @ts-expect-error a method the path does not have
  void call<ChatMessage>(endpoint('POST', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 1, id: 2 }, body: { content: 'x' } }));
  // @ts-expect-error a path parameter missing
  void call<ChatMessage>(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 1 }, body: { content: 'x' } }));
  // @ts-expect-error an answer type the document does not give (a room, not a message)
  void call<Room>(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 1, id: 2 }, body: { content: 'x' } }));
  // @ts-expect-error the chat's answer is no message
  void fetchOrThrow<ChatMessage>(endpoint('GET', '/api/chat/{id}/', { path: { id: 1 } }));
  // compiles
  void fetchOrThrow<GroupChat>(endpoint('GET', '/api/chat/{id}/', { path: { id: 1 } }));
  // @ts-expect-error a query parameter of the wrong type
  void succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/member/', { path: { groupChatId: 1 }, query: { permanent: 'yes' } }));
  // @ts-expect-error a body on an operation that takes none
  void succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/member/', { path: { groupChatId: 1 }, body: { permanent: true } }));
  // @ts-expect-error `succeeded` is for a 204, and this operation answers a message
  void succeeded(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: 1, id: 2 }, body: { content: 'x' } }));
  // @ts-expect-error a request the document does not describe is not taken at all
  void call<ChatMessage>({ method: 'PATCH', url: '/api/chat/1/messages/2/', data: { content: 'x' } });
  // compiles: a multipart body is FormData
  void call(endpoint('POST', '/api/rooms/{roomId}/segments/', { path: { roomId: 1 }, body: new FormData() }));
  // @ts-expect-error a JSON body where the document takes multipart only
  void call(endpoint('POST', '/api/rooms/{roomId}/segments/', { path: { roomId: 1 }, body: { clientId: 'x' } }));
}
void _typedByTheDocument;

describe('answer types', () => {
  it('are the document’s: the JSON of a 200 or 201, undefined for a 204', () => {
    type GetChat = ApiAnswer<ApiOperation<'GET', '/api/chat/{id}/'>>;
    expectTypeOf<GetChat>().not.toBeAny();
    expectTypeOf<GetChat>().toHaveProperty('title').toEqualTypeOf<string>();
    expectTypeOf<GetChat>().toExtend<GroupChat>();
    expectTypeOf<ApiAnswer<ApiOperation<'DELETE', '/api/chat/{id}/'>>>().toEqualTypeOf<undefined>();
    expectTypeOf(endpoint('POST', '/api/chat/{groupChatId}/messages/', { path: { groupChatId: 1 }, body: { content: 'x' } })).toExtend<ApiRequest<ChatMessage>>();
  });
});
