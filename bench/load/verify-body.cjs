'use strict';
module.exports = require('./hooks.cjs').verifyBody;
