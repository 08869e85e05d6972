import { routeNotFound } from '../../../shared/contracts/platform.ts';
import { AppError } from '../../../shared/errors/app-error.ts';
import { publicHttpHandler } from '../../../shared/http/handler.ts';

export const handler = publicHttpHandler(routeNotFound, async () => {
  throw new AppError('rest_no_route', 404, 'No route was found matching the URL and request method.');
});
