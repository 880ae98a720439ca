import { z } from 'zod';
import { endpoint } from '../endpoint';
import { detailedHealthSchema, eventListQuery, eventListSchema, healthSchema, maintenanceBody, maintenanceSchema } from '../schemas/operations';

export const listEvents = endpoint({
  id: 'listEvents',
  method: 'GET',
  path: '/v1/events',
  summary: 'The event log, newest first',
  auth: 'webhooks:*',
  query: eventListQuery,
  response: { status: 200, description: 'A page of events', schema: eventListSchema },
  errors: [],
});

export const getOpenApiDocument = endpoint({
  id: 'getOpenApiDocument',
  method: 'GET',
  path: '/v1/openapi.json',
  summary: 'The OpenAPI 3.1 document of this API (no authentication)',
  auth: 'public',
  response: { status: 200, description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()).meta({ id: 'OpenApiDocument' }) },
  errors: [],
});

export const getHealth = endpoint({
  id: 'getHealth',
  method: 'GET',
  path: '/health',
  summary: 'Liveness and version (no authentication)',
  auth: 'public',
  duringMaintenance: true,
  response: { status: 200, description: 'Healthy', schema: healthSchema },
  errors: [],
});

export const getDetailedHealth = endpoint({
  id: 'getDetailedHealth',
  method: 'GET',
  path: '/health/detailed',
  summary: 'Database and storage probes',
  auth: 'authenticated',
  duringMaintenance: true,
  response: { status: 200, description: 'All components healthy', schema: detailedHealthSchema },
  alternatives: [{ status: 503, description: 'A component is unhealthy', schema: detailedHealthSchema }],
  errors: [],
});

export const getMaintenance = endpoint({
  id: 'getMaintenance',
  method: 'GET',
  path: '/admin/maintenance',
  summary: 'Maintenance mode state',
  auth: 'admin',
  duringMaintenance: true,
  response: { status: 200, description: 'Current state', schema: maintenanceSchema },
  errors: [],
});

export const setMaintenance = endpoint({
  id: 'setMaintenance',
  method: 'POST',
  path: '/admin/maintenance',
  summary: 'Turn maintenance mode on or off',
  auth: 'admin',
  body: maintenanceBody,
  duringMaintenance: true,
  response: { status: 200, description: 'The new state', schema: maintenanceSchema },
  errors: [],
});
