// What other modules use: the inbound EHR/HIS webhooks keep the catalog with these.
export { deleteCenter, deleteService, upsertCenter, upsertCenters, upsertService } from './catalog-events.js';
export { seedCatalog } from './seed-catalog.js';
export { centerSchema, serviceSchema, type Center, type Service } from './centers.schema.js';
