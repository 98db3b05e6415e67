'use strict';
module.exports = require('./hooks.cjs').setupRequest;
