import * as v from 'valibot';
import { isoDateTime } from './fields.ts';
import { defineOperation } from './operation.ts';

export const createLiveTicket = defineOperation({
  operationId: 'createLiveTicket',
  summary: 'Get a ticket to open a live (WebSocket) connection',
  description:
    'For clients that cannot set an `Authorization` header on a WebSocket (browsers): connect to the live URL ' +
    'with `?ticket=<ticket>` within 60 seconds. A ticket opens one connection, as the member who asked for it.',
  tags: ['Live'],
  successStatus: 201,
  response: v.object({ ticket: v.string(), expires_at: isoDateTime() }),
  errors: [],
});
