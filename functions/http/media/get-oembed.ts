import { getOembed as contract } from '../../../shared/contracts/media.ts';
import { fetchOembed } from '../../../shared/domain/media/fetch-oembed.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ query }) => fetchOembed(query.url));
