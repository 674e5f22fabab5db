/** `npm run openapi:generate [file]`: writes the OpenAPI document without connecting to anything. */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { buildOpenApiDocument } from './app.setup.js';
import { loadConfig } from './config/app-config.js';

const target = process.argv[2] ?? 'openapi.json';
// Preview mode resolves the module graph without instantiating providers: no database, no Redis.
const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(loadConfig()), new FastifyAdapter(), {
  preview: true,
  logger: false,
});
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
await app.close();
process.stdout.write(`wrote ${target}\n`);
