/**
 * Entities (docs/scenarios.md, "Entities"): the stateful collections a scenario's vbr_entities
 * declare, served by the `entities` stage and kept in the `scenario-entities` store.
 */
export { entityBudget, EntityService, type EntityOptions, type EntityRequest, type EntityResult, type Item } from './entity-service.js';
