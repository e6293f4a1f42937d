"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.chunkRanges = exports.computeInChunks = exports.formatPeriod = exports.parsePeriod = exports.populationFromArrays = exports.buildPopulation = exports.Simulation = exports.CompiledModel = exports.CountryModel = void 0;
__exportStar(require("./types"), exports);
var model_1 = require("./model");
Object.defineProperty(exports, "CountryModel", { enumerable: true, get: function () { return model_1.CountryModel; } });
Object.defineProperty(exports, "CompiledModel", { enumerable: true, get: function () { return model_1.CompiledModel; } });
var simulation_1 = require("./simulation");
Object.defineProperty(exports, "Simulation", { enumerable: true, get: function () { return simulation_1.Simulation; } });
var population_1 = require("./population");
Object.defineProperty(exports, "buildPopulation", { enumerable: true, get: function () { return population_1.buildPopulation; } });
Object.defineProperty(exports, "populationFromArrays", { enumerable: true, get: function () { return population_1.populationFromArrays; } });
var periods_1 = require("./periods");
Object.defineProperty(exports, "parsePeriod", { enumerable: true, get: function () { return periods_1.parsePeriod; } });
Object.defineProperty(exports, "formatPeriod", { enumerable: true, get: function () { return periods_1.formatPeriod; } });
var chunked_1 = require("./chunked");
Object.defineProperty(exports, "computeInChunks", { enumerable: true, get: function () { return chunked_1.computeInChunks; } });
Object.defineProperty(exports, "chunkRanges", { enumerable: true, get: function () { return chunked_1.chunkRanges; } });
//# sourceMappingURL=index.js.map