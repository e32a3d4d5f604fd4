// One emulated controller board: the real MicroPython firmware on rp2040js's RP2040, its USB
// serial port on a pseudo-terminal, its pins and ADC driven from outside.
//
//   node board.mjs --firmware FIRMWARE.bin|.uf2 --bootrom BOOTROM.bin --pty FD [--fs FS.img]
//                  [--noise LSB] [--watch PIN,...] [--trace-usb]
//
// File descriptor FD is the master side of a pseudo-terminal, opened non-blocking by the caller
// (firmware/emulated_board.py): the bytes the board sends over USB CDC are written to it, the
// bytes the host writes on the slave side reach the board's USB OUT endpoint. Commands come as
// JSON lines on stdin and every answer or event goes out as a JSON line on stdout:
//
//   {"op": "adc", "channel": 0, "value": 2048}      12-bit reading of an ADC input
//   {"op": "pin", "pin": 15, "level": 1}            level driven on a GPIO input
//   {"op": "boot"}                                  power the chip (again), keeping its flash
//   {"op": "pace", "mode": "wall" | "hold"}         follow the wall clock, or run only when told
//   {"op": "run", "until_ms": 1500}                 in hold mode: run to that emulated time
//   {"op": "send_at", "ms": 120, "hex": "0301"}     host bytes that reach the board at that time
//   {"op": "drop_sends"}                            forget the host bytes given for later times
//   {"op": "status"}                                emulated time, boots, watched pin levels
//   {"op": "save_fs", "path": "fs.img"}             write the filesystem's flash region to a file
//   {"op": "quit"}
//
// Each command may carry an "id", echoed in its answer ({"ev": "done", "id": ...}). Events:
// "ready", "boot", "pin" (an output level changed), "paused" (a run reached its time),
// "bootloader" (the firmware asked for the UF2 bootloader), "usb" (with --trace-usb: each USB
// packet the board sent, in hex, with the emulated time). "adc" and "pin" answer with the emulated
// time at which the new level took effect.
//
// Three things rp2040js 1.4 leaves out are filled in here, or MicroPython misbehaves on it:
// flash erase and program through the boot ROM (trapped and applied to the emulated flash, so
// the board's filesystem can be written), a USB OUT transfer with nothing to deliver (held until
// the host sends bytes, as a real host controller does, instead of completing at once with none
// and interrupting the board every few microseconds), and the watchdog reset behind
// machine.reset() (the chip restarts, its flash kept).
import { readFileSync, writeFileSync, readSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { RP2040, USBCDC, GPIOPinState } from "rp2040js";

const FLASH_BASE = 0x10000000;
const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's flash (RPI_PICO builds for 2 MiB)
const FS_OFFSET = 0xa0000; // MicroPython's RPI_PICO filesystem: the last 1408 KiB of flash
const CYCLE_NS = 8; // 125 MHz
const QSPI_SS_CTRL = 0x0c; // IO_QSPI: the flash chip select's pad control
const SSI_DR0 = 0x60; // SSI data register: bytes to and from the flash chip
const RUID_COMMAND = 0x4b; // flash command "read unique ID": 4 dummy bytes, then 8 bytes of id
const RUID_DUMMY_BYTES = 4;
const USB_SOF_RD = 0x48; // USB controller register: frame number of the last SOF
const INTR_DEV_SOF = 1 << 17; // USB controller interrupt: SOF received (device mode)
const SLICE_WALL_MS = 10; // longest the emulation runs before looking at the outside again

function parseArgs(argv) {
    const args = { noise: 0, traceUsb: false, watch: [], uid: Buffer.from("e6614104031a2b3c", "hex") };
    for (let i = 0; i < argv.length; i++) {
        const key = argv[i];
        if (key === "--firmware") args.firmware = argv[++i];
        else if (key === "--bootrom") args.bootrom = argv[++i];
        else if (key === "--fs") args.fs = argv[++i];
        else if (key === "--pty") args.pty = Number(argv[++i]);
        else if (key === "--noise") args.noise = Number(argv[++i]);
        else if (key === "--watch") args.watch = argv[++i].split(",").map(Number);
        else if (key === "--uid") args.uid = Buffer.from(argv[++i], "hex");
        else if (key === "--trace-usb") args.traceUsb = true;
        else throw new Error(`unknown argument ${key}`);
    }
    if (!args.firmware || !args.bootrom || !(args.pty >= 0)) {
        throw new Error("usage: node board.mjs --firmware FILE --bootrom FILE --pty FD [--fs FILE] [--noise LSB] [--watch PINS]");
    }
    return args;
}

/** The flash contents of a firmware file: a raw image from address 0, or a UF2 file. */
function firmwareImage(path) {
    const data = readFileSync(path);
    const image = new Uint8Array(FLASH_SIZE).fill(0xff);
    if (data.length >= 512 && data.readUInt32LE(0) === 0x0a324655 && data.readUInt32LE(4) === 0x9e5d5157) {
        for (let at = 0; at + 512 <= data.length; at += 512) {
            const flags = data.readUInt32LE(at + 8);
            const address = data.readUInt32LE(at + 12);
            const size = data.readUInt32LE(at + 16);
            if (flags & 1) continue; // "not main flash"
            const offset = address - FLASH_BASE;
            if (offset < 0 || offset + size > FLASH_SIZE) throw new Error(`${path}: UF2 block outside flash`);
            image.set(data.subarray(at + 32, at + 32 + size), offset);
        }
    } else {
        if (data.length > FS_OFFSET) throw new Error(`${path}: ${data.length} bytes overlap the filesystem`);
        image.set(data, 0);
    }
    return image;
}

function send(event) {
    process.stdout.write(JSON.stringify(event) + "\n");
}

// rp2040js warns of every access to a peripheral it does not model (the flash interface, the
// RTC...); MicroPython touches them at every boot and works without them: only errors are shown.
const quietLogger = {
    debug() {},
    info() {},
    warn() {},
    error(component, message) {
        process.stderr.write(`[${component}] error: ${message}\n`);
    },
};

/** A small deterministic generator (mulberry32): the same noise on every run. */
function prng(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

class Board {
    constructor(args) {
        this.args = args;
        this.flash = firmwareImage(args.firmware);
        if (args.fs) {
            const fs = readFileSync(args.fs);
            this.flash.set(fs.subarray(0, FLASH_SIZE - FS_OFFSET), FS_OFFSET);
        }
        const rom = readFileSync(args.bootrom);
        this.bootrom = new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4);
        this.adc = [0, 0, 0, 0, 0];
        this.inputs = new Map(); // pin -> level driven from outside
        this.watch = args.watch;
        this.levels = {}; // watched output pin -> last level
        this.random = prng(1);
        this.mcu = null;
        this.boots = 0;
        this.nanos = 0; // emulated time of the chips before this one (a reboot keeps the clock going)
        this.rebootPending = null;
        this.halted = false;
        this.hostBytes = []; // bytes waiting for the USB OUT endpoint
        this.pendingRead = null; // size of an OUT transfer the board is waiting on
        this.scheduled = []; // [ns, bytes] to deliver at an emulated time, sorted
        this.toHost = []; // chunks the pseudo-terminal could not take yet
        this.dropped = 0;
        this.mode = "wall";
        this.limitNs = 0;
        this.wallAnchor = null; // [wall ms, emulated ns] when wall pacing started
        this.runRequest = null;
        this.instructions = 0; // executed so far, for the emulation's speed
        this.runWallMs = 0; // real time spent running the chip
    }

    get ns() {
        return this.nanos + (this.mcu ? this.mcu.clock.nanos : 0);
    }

    get ms() {
        return this.ns / 1e6;
    }

    boot(why) {
        if (this.mcu) {
            this.nanos += this.mcu.clock.nanos;
            this.flash.set(this.mcu.flash.subarray(0, FLASH_SIZE));
        }
        const mcu = new RP2040();
        mcu.logger = quietLogger;
        mcu.loadBootrom(this.bootrom); // (resets the chip, erasing its flash: the flash goes in after)
        mcu.flash.set(this.flash);
        this.mcu = mcu;
        this.halted = false;
        this.hostBytes = [];
        this.pendingRead = null;
        this.trapRomFunctions(mcu);
        this.answerUniqueId(mcu);
        this.connectUsb(mcu);
        this.connectPins(mcu);
        mcu.peripherals[0x40058].onWatchdogTrigger = () => {
            this.rebootPending = "watchdog";
        };
        mcu.core.PC = FLASH_BASE; // boot stage 2 at the start of flash, as the boot ROM would run it
        this.boots += 1;
        send({ ev: "boot", n: this.boots, why, ms: this.ms });
    }

    /** Replace the boot ROM functions rp2040js cannot run (flash writes, USB boot) with traps. */
    trapRomFunctions(mcu) {
        const rom = new Uint8Array(mcu.bootrom.buffer);
        const u16 = (at) => rom[at] | (rom[at + 1] << 8);
        const functions = {};
        for (let at = u16(0x14); u16(at) !== 0; at += 4) {
            const code = String.fromCharCode(rom[at], rom[at + 1]);
            functions[code] = u16(at + 2) & ~1;
        }
        const traps = { RE: 1, RP: 2, UB: 3 };
        const handlers = {};
        for (const [code, number] of Object.entries(traps)) {
            const at = functions[code];
            rom[at] = number; // BKPT #number
            rom[at + 1] = 0xbe;
            handlers[number] = code;
        }
        mcu.onBreak = (number) => {
            const core = mcu.core;
            const r = core.registers;
            const code = handlers[number];
            if (code === "RE") {
                // flash_range_erase(offset, count, block_size, block_cmd)
                const offset = r[0] >>> 0;
                const count = r[1] >>> 0;
                mcu.flash.fill(0xff, offset, offset + count);
            } else if (code === "RP") {
                // flash_range_program(offset, data, count): NOR flash only clears bits
                const offset = r[0] >>> 0;
                const data = r[1] >>> 0;
                const count = r[2] >>> 0;
                for (let i = 0; i < count; i++) {
                    mcu.flash[offset + i] &= mcu.readUint8(data + i);
                }
            } else if (code === "UB") {
                this.halted = true;
                send({ ev: "bootloader", ms: this.ms });
                return;
            } else {
                throw new Error(`breakpoint ${number} at 0x${(core.PC >>> 0).toString(16)}`);
            }
            core.breakRewind = 0;
            core.PC = core.LR & ~1;
        };
    }

    /**
     * Answer the flash chip's "read unique ID" command (0x4B), which rp2040js does not model: the
     * RP2040 has no id of its own, and MicroPython's machine.unique_id() is this flash id.
     */
    answerUniqueId(mcu) {
        const ssi = mcu.peripherals[0x18000];
        const qspi = mcu.peripherals[0x40018];
        const uid = this.args.uid;
        let sent = [];
        const writeQspi = qspi.writeUint32.bind(qspi);
        qspi.writeUint32 = (offset, value) => {
            if (offset === QSPI_SS_CTRL && ((value >> 8) & 3) === 2) sent = []; // chip select driven low
            writeQspi(offset, value);
        };
        const writeSsi = ssi.writeUint32.bind(ssi);
        ssi.writeUint32 = (offset, value) => {
            writeSsi(offset, value);
            if (offset !== SSI_DR0) return;
            sent.push(value & 0xff);
            const at = sent.length - 1 - 1 - RUID_DUMMY_BYTES;
            if (sent[0] === RUID_COMMAND && at >= 0 && at < uid.length) ssi.dr0 = uid[at];
            else if (sent[0] === RUID_COMMAND) ssi.dr0 = 0;
        };
    }

    connectUsb(mcu) {
        const cdc = new USBCDC(mcu.usbCtrl);
        const usb = mcu.usbCtrl;
        cdc.onSerialData = (buffer) => {
            this.toHost.push(Buffer.from(buffer));
            if (this.args.traceUsb) send({ ev: "usb", ms: this.ms, hex: Buffer.from(buffer).toString("hex") });
            this.flushToHost();
        };
        usb.onEndpointRead = (endpoint, size) => {
            if (endpoint !== cdc.outEndpoint) return;
            this.pendingRead = size;
            this.deliver();
        };
        // A USB host starts every 1 ms frame with a SOF packet; rp2040js makes them only as a host.
        // MicroPython waits for a few after the port opens before it sends what it printed earlier.
        const sof = mcu.clock.createAlarm(() => {
            if (usb.intEnable & INTR_DEV_SOF) {
                usb.sofFrameNumber = (usb.sofFrameNumber + 1) & 0x7ff;
                usb.intRaw |= INTR_DEV_SOF;
                usb.checkInterrupts();
            }
            sof.schedule(1e6);
        });
        cdc.onDeviceConnected = () => sof.schedule(1e6);
        const readRegister = usb.readUint32.bind(usb);
        usb.readUint32 = (offset) => {
            if (offset === USB_SOF_RD) {
                usb.intRaw &= ~INTR_DEV_SOF; // reading the frame number acknowledges the SOF
                usb.checkInterrupts();
            }
            return readRegister(offset);
        };
        this.cdc = cdc;
    }

    connectPins(mcu) {
        for (const [pin, level] of this.inputs) mcu.gpio[pin].setInputValue(!!level);
        mcu.adc.channelValues = this.adc.slice();
        mcu.adc.onADCRead = (channel) => {
            let value = this.adc[channel];
            if (this.args.noise > 0) {
                // about `noise` LSB RMS: the sum of three uniform draws, rounded
                const n = (this.random() + this.random() + this.random() - 1.5) * 2 * this.args.noise;
                value = Math.max(0, Math.min(4095, Math.round(value + n)));
            }
            mcu.clock.createAlarm(() => mcu.adc.completeADCRead(value, false)).schedule(mcu.adc.sampleTime * 1000);
        };
        for (const pin of this.watch) {
            const gpio = mcu.gpio[pin];
            gpio.addListener((state) => {
                const level = state === GPIOPinState.High ? 1 : state === GPIOPinState.Low ? 0 : null;
                if (level !== null && level !== this.levels[pin]) {
                    this.levels[pin] = level;
                    send({ ev: "pin", pin, level, ms: this.ms });
                }
            });
        }
    }

    /** Complete a held USB OUT transfer with the host's bytes, if both are there. */
    deliver() {
        if (this.pendingRead === null || this.hostBytes.length === 0 || this.halted) return;
        const size = Math.min(this.pendingRead, this.hostBytes.length);
        const chunk = Uint8Array.from(this.hostBytes.splice(0, size));
        this.pendingRead = null;
        this.mcu.usbCtrl.endpointReadDone(this.cdc.outEndpoint, chunk);
    }

    flushToHost() {
        while (this.toHost.length) {
            const chunk = this.toHost[0];
            let written = 0;
            try {
                written = writeSync(this.args.pty, chunk);
            } catch (e) {
                if (e.code !== "EAGAIN") throw e;
            }
            if (written < chunk.length) {
                this.toHost[0] = chunk.subarray(written);
                // A host that does not read: a real board's bytes wait in its USB buffer, then go.
                let queued = this.toHost.reduce((n, c) => n + c.length, 0);
                while (queued > 4096) {
                    queued -= this.toHost[0].length;
                    this.dropped += this.toHost.shift().length;
                }
                return;
            }
            this.toHost.shift();
        }
    }

    readFromHost() {
        const buf = Buffer.alloc(4096);
        for (;;) {
            let n = 0;
            try {
                n = readSync(this.args.pty, buf, 0, buf.length, null);
            } catch (e) {
                if (e.code === "EAGAIN" || e.code === "EIO") return;
                throw e;
            }
            if (n <= 0) return;
            for (let i = 0; i < n; i++) this.hostBytes.push(buf[i]);
        }
    }

    /** Run the chip up to emulated time `limit` (ns), or until `wallMs` of real time went by. */
    runTo(limit, wallMs) {
        const started = performance.now();
        const stopAt = started + wallMs;
        while (this.ns < limit) {
            if (this.rebootPending) {
                const why = this.rebootPending;
                this.rebootPending = null;
                this.boot(why);
            }
            this.releaseScheduled();
            const core = this.mcu.core;
            const clock = this.mcu.clock;
            let until = limit;
            if (this.scheduled.length && this.scheduled[0][0] < until) until = this.scheduled[0][0];
            until -= this.nanos;
            if (this.halted) {
                clock.tick(until - clock.nanos);
                continue;
            }
            for (let i = 0; i < 4000 && clock.nanos < until && !this.rebootPending; i++) {
                if (core.waiting) {
                    const next = clock.nanosToNextAlarm;
                    const step = next > 0 ? Math.min(next, until - clock.nanos) : until - clock.nanos;
                    clock.tick(step);
                } else {
                    clock.tick(core.executeInstruction() * CYCLE_NS);
                    this.instructions++;
                }
            }
            if (performance.now() >= stopAt) break;
        }
        this.releaseScheduled();
        this.runWallMs += performance.now() - started;
    }

    releaseScheduled() {
        let released = false;
        while (this.scheduled.length && this.scheduled[0][0] <= this.ns) {
            for (const byte of this.scheduled.shift()[1]) this.hostBytes.push(byte);
            released = true;
        }
        if (released) this.deliver();
    }

    /** One turn of the loop: take the host's bytes, run the chip a little, come back later. */
    tick() {
        if (!this.mcu) {
            this.timer = setTimeout(() => this.tick(), 1);
            return;
        }
        this.readFromHost();
        this.deliver();
        this.flushToHost();
        if (this.mode === "wall") {
            const [wall0, ns0] = this.wallAnchor;
            this.limitNs = Math.max(this.limitNs, ns0 + (performance.now() - wall0) * 1e6);
        }
        if (this.ns < this.limitNs) this.runTo(this.limitNs, SLICE_WALL_MS);
        this.readFromHost();
        this.deliver();
        if (this.runRequest && this.ns >= this.limitNs) {
            send({ ev: "paused", id: this.runRequest, ms: this.ms });
            this.runRequest = null;
        }
        const busy = this.ns < this.limitNs;
        this.timer = busy ? setImmediate(() => this.tick()) : setTimeout(() => this.tick(), 1);
    }

    command(msg) {
        const reply = (extra) => send({ ev: "done", id: msg.id, ...extra });
        switch (msg.op) {
            case "adc":
                this.adc[msg.channel] = msg.value;
                if (this.mcu) this.mcu.adc.channelValues[msg.channel] = msg.value;
                return reply({ ms: this.ms });
            case "pin":
                this.inputs.set(msg.pin, msg.level);
                if (this.mcu) this.mcu.gpio[msg.pin].setInputValue(!!msg.level);
                return reply({ ms: this.ms });
            case "boot":
                this.boot(msg.why || "power-up");
                return reply({ ms: this.ms });
            case "pace":
                this.mode = msg.mode;
                if (msg.mode === "wall") this.wallAnchor = [performance.now(), this.ns];
                this.limitNs = this.ns;
                return reply({ ms: this.ms });
            case "run":
                if (this.mode !== "hold") throw new Error("run needs hold mode");
                this.limitNs = msg.until_ms * 1e6;
                this.runRequest = msg.id ?? true;
                return;
            case "send_at":
                this.scheduled.push([msg.ms * 1e6, Buffer.from(msg.hex, "hex")]);
                this.scheduled.sort((a, b) => a[0] - b[0]);
                return reply({});
            case "drop_sends":
                this.scheduled = [];
                return reply({});
            case "status":
                return reply({
                    ms: this.ms,
                    boots: this.boots,
                    levels: this.levels,
                    dropped: this.dropped,
                    halted: this.halted,
                    waiting_host_bytes: this.hostBytes.length,
                    instructions: this.instructions,
                    run_wall_ms: this.runWallMs,
                });
            case "save_fs":
                writeFileSync(msg.path, this.mcu.flash.subarray(FS_OFFSET, FLASH_SIZE));
                return reply({});
            case "quit":
                reply({});
                process.exit(0);
            default:
                throw new Error(`unknown op ${msg.op}`);
        }
    }
}

const board = new Board(parseArgs(process.argv.slice(2)));
board.wallAnchor = [performance.now(), 0];
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
    if (!line.trim()) return;
    let msg;
    try {
        msg = JSON.parse(line);
        board.command(msg);
    } catch (e) {
        send({ ev: "error", id: msg && msg.id, message: String(e && e.message ? e.message : e) });
    }
});
lines.on("close", () => process.exit(0));
send({ ev: "ready" });
board.tick();
