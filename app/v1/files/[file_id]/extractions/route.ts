import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { listFileExtractions } from '@/lib/extraction/queries';

export const GET = route(endpoints.listFileExtractions, ({ params, query, services }) => listFileExtractions(services, params.file_id, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
