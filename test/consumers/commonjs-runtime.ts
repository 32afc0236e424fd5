/**
 * CommonJS as jest runs it (its default runtime, with ts-jest or babel-jest), for `node --require`:
 * each module is compiled with `vm.compileFunction` and no dynamic-import callback, so an `import()`
 * throws (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); and the package's own `require` of an ES module
 * throws ERR_REQUIRE_ESM, as on Node before 20.19 (the package's `engines` says >=20). A CommonJS
 * build that runs under it runs in jest and on every Node 20. (Other packages' requires are left to
 * Node: msw's CommonJS build requires ES modules of its own, which a jest config transforms.)
 */
export const COMMONJS_RUNTIME_CJS = `const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

/** The "type" of the package.json nearest to \`file\`. */
function packageType(file) {
  for (let dir = path.dirname(file); ; ) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) return JSON.parse(fs.readFileSync(manifest, 'utf8')).type;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

const OWN = path.sep + 'subscription-platform-sdk' + path.sep;

function isEsm(file) {
  return file.endsWith('.mjs') || (file.endsWith('.js') && packageType(file) === 'module');
}

function compile(module, filename) {
  const source = fs.readFileSync(filename, 'utf8').replace(/^#!.*/, '');
  const wrapper = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  const own = filename.includes(OWN);
  const require = (id) => {
    if (own) {
      // A package of ES modules only ("type": "module"). A package of both formats is let be: Node
      // 20.19 and later find its ES module (its "module-sync" condition), older Node and jest its
      // CommonJS build.
      const file = Module._resolveFilename(id, module);
      if (!file.endsWith('.cjs') && path.isAbsolute(file) && packageType(file) === 'module') {
        const error = new Error(\`\${filename}: require() of ES Module \${file} (Node before 20.19 and jest refuse it)\`);
        error.code = 'ERR_REQUIRE_ESM';
        throw error;
      }
    }
    return module.require(id);
  };
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.cache = Module._cache;
  require.main = process.mainModule;
  wrapper.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
}

const loadJs = Module._extensions['.js'];
Module._extensions['.js'] = (module, filename) =>
  isEsm(filename) ? loadJs(module, filename) : compile(module, filename);
Module._extensions['.cjs'] = compile;
`;
