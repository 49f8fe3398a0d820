/**
 * TFLite Micro's signal-library kernel-test vectors (tflite-micro/signal/micro/kernels/*_test.cc
 * and their *_flexbuffers_generated_data.cc option maps), the oracle of uma-ts's signal ops:
 * LiteRT has none of these operators.
 */

/** window_test.cc WindowTestLength16Shift12 (shift 12) and WindowTestLength32Shift8 (shift 8). */
export const WINDOW_16 = {
  shift: 12,
  input: [0x000, 0x100, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700, 0x800, 0x900, 0xa00, 0xb00, 0xc00, 0xd00, 0xe00, 0xf00],
  weights: [0xf00, 0xe00, 0xd00, 0xc00, 0xb00, 0xa00, 0x900, 0x800, 0x700, 0x600, 0x500, 0x400, 0x300, 0x200, 0x100, 0x000],
  golden: [0, 224, 416, 576, 704, 800, 864, 896, 896, 864, 800, 704, 576, 416, 224, 0],
};
export const WINDOW_32 = {
  shift: 8,
  input: [
    1221, 1920, 9531, 2795, 1826, 371, 8446, 850, 3129, 8218, 4199, 8358, 205, 5268, 3263, 2849, 8398, 1381, 6305, 668, 8867, 4651, 9121, 6141, 1961, 3750, 8418, 8085,
    3308, 1788, 1608, 4761,
  ],
  weights: [
    1323, 764, 9100, 4220, 1745, 9311, 178, 9442, 5676, 1817, 5433, 5837, 7635, 4539, 6548, 9690, 6097, 4275, 1523, 3694, 7506, 2797, 5153, 172, 2172, 4540, 6643, 7845,
    1719, 7564, 1700, 5227,
  ],
  golden: [
    6310, 5730, 32767, 32767, 12446, 13493, 5872, 31350, 32767, 32767, 32767, 32767, 6113, 32767, 32767, 32767, 32767, 23061, 32767, 9639, 32767, 32767, 32767, 4125,
    16637, 32767, 32767, 32767, 22212, 32767, 10678, 32767,
  ],
};

/** fft_test.cc FftAutoScaleTestSmall and FftAutoScaleTestScaleBit. */
export const AUTO_SCALE_SMALL = {
  input: [0x0000, 0x1111, 0x2222, 0x3333, 0x3333, 0x2222, 0x1111, 0x0000],
  golden: [0x0000, 0x2222, 0x4444, 0x6666, 0x6666, 0x4444, 0x2222, 0x0000],
  bits: 1,
};
export const AUTO_SCALE_BITS = {
  input: [238, 113, -88, -243, -5, -130, 159, -70],
  golden: [30464, 14464, -11264, -31104, -640, -16640, 20352, -8960],
  bits: 7,
};

/** fft_test.cc RfftTestSize64Int16: an impulse of 16384 transforms to 256 + 0i in every bin. */
export const RFFT_64_IMPULSE = {
  fftLength: 64,
  input: [16384, ...new Array<number>(63).fill(0)],
  golden: Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 256 : 0)),
};

/** energy_test.cc (start/end index pairs 2-4, 0-4, 4-8 over the same 8 complex bins). */
export const ENERGY_INPUT = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
export const ENERGY_CASES = [
  { start: 2, end: 4, golden: [0, 0, 61, 113, 0, 0, 0, 0] },
  { start: 0, end: 4, golden: [5, 25, 61, 113, 0, 0, 0, 0] },
  { start: 4, end: 8, golden: [0, 0, 0, 0, 181, 265, 365, 481] },
];

/** filter_bank_test.cc FilterBankTest16Channel (a negative weight: sign-extended to uint64). */
export const FILTER_BANK_16 = {
  numChannels: 16,
  input: [
    645050, 4644, 3653, 24262, 56660, 43260, 50584, 57902, 31702, 5401, 45555, 34852, 8518, 43556, 13358, 19350, 40221, 18017, 27284, 64491, 60099, 17863, 11001, 29076,
    32666, 65268, 50947, 28694, 32377, 30014, 25607, 22547, 45086, 10654, 46797, 8622, 47348, 43085, 5747, 51544, 50364, 6208, 20696, 59782, 14429, 60125, 37079, 32673,
    63457, 60142, 34042, 11280, 1874, 33734, 62118, 13766, 54398, 47818, 50976, 46930, 25906, 59441, 25958, 59136, 1756, 18652, 29213, 13379, 51845, 1207, 55626, 27108,
    43771, 35236, 3374, 40959, 47707, 41540, 34282, 27094, 36329, 13593, 65257, 47006, 46857, 1114, 37106, 18738, 25969, 15461, 2842, 36470, 32489, 61622, 23613, 29624,
    32820, 30438, 9543, 6767, 23037, 52896, 12059, 32264, 11575, 42400, 43344, 27511, 16712, 6877, 4910, 50047, 61569, 57237, 48558, 2310, 22192, 7874, 46141, 64056,
    61997, 7298, 31372, 25316, 683, 58940, 18755, 17898, 19196,
  ],
  weights: [
    -2210, 1711, 3237, 1247, 2507, 61, 1019, 899, 206, 146, 2849, 2756, 1260, 1280, 1951, 213, 617, 2047, 211, 347, 2821, 3747, 150, 1924, 3962, 942, 1430, 2678, 993, 308,
    3364, 2491, 954, 1308, 879, 3950, 1, 3556, 3628, 2104, 78, 1298, 1080, 342, 1337, 1639, 2352, 829, 1358, 2498, 1647, 2507, 3816, 3767, 3735, 1155, 2221, 2196, 1160,
  ],
  unweights: [
    408, 3574, 1880, 2561, 2011, 3394, 1019, 445, 3901, 343, 1874, 3846, 3566, 1830, 327, 111, 623, 1037, 2803, 1947, 1518, 661, 3239, 2351, 1257, 269, 1574, 3431, 3972,
    2487, 2181, 1458, 552, 717, 679, 1031, 1738, 1782, 128, 2242, 353, 1460, 3305, 1424, 3813, 2895, 164, 272, 3886, 3135, 141, 747, 3233, 1478, 2612, 3837, 3271, 73, 1746,
  ],
  frequencyStarts: [5, 6, 7, 9, 11, 12, 14, 16, 18, 20, 22, 25, 27, 30, 32, 35, 33],
  weightStarts: [0, 1, 2, 4, 6, 7, 9, 11, 13, 15, 17, 20, 22, 25, 27, 30, 33],
  widths: [1, 1, 2, 2, 1, 2, 2, 2, 2, 2, 3, 2, 3, 2, 3, 3, 3],
  golden: [104199304, 407748384, 206363744, 200989269, 52144406, 230780884, 174394190, 379684049, 94840835, 57788823, 531528204, 318265707, 263149795, 188110467, 501443259, 200747781],
};

/** filter_bank_square_root_test.cc FilterBankSquareRoot16Channel (scale bits 5). */
export const SQRT_16 = {
  input: [
    13051415151n, 14932650877n, 18954728418n, 8730126017n, 6529665275n, 12952546517n, 10314975609n, 8919697835n, 8053663348n, 17231208421n, 7366899760n, 1372112200n,
    19953434807n, 17012385332n, 4710443222n, 17765594053n,
  ],
  bits: 5,
  golden: [3570, 3818, 4302, 2919, 2525, 3556, 3173, 2951, 2804, 4102, 2682, 1157, 4414, 4076, 2144, 4165],
};

/**
 * filter_bank_spectral_subtraction_flexbuffers_generated_data.cc: TFLM's option map for 32
 * channels (the 16-channel map differs in num_channels only), bytes as generated.
 */
export const SPECTRAL_SUBTRACTION_OPTIONS_32 = Uint8Array.from([
  0x6e, 0x75, 0x6d, 0x5f, 0x63, 0x68, 0x61, 0x6e, 0x6e, 0x65, 0x6c, 0x73, 0x00, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x6f, 0x6e, 0x65, 0x5f, 0x6d,
  0x69, 0x6e, 0x75, 0x73, 0x5f, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x74, 0x65, 0x5f, 0x73, 0x6d, 0x6f,
  0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x74, 0x65, 0x5f, 0x6f, 0x6e, 0x65, 0x5f, 0x6d, 0x69, 0x6e, 0x75, 0x73, 0x5f, 0x73,
  0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x5f, 0x62, 0x69, 0x74, 0x73, 0x00, 0x6d, 0x69, 0x6e, 0x5f,
  0x73, 0x69, 0x67, 0x6e, 0x61, 0x6c, 0x5f, 0x72, 0x65, 0x6d, 0x61, 0x69, 0x6e, 0x69, 0x6e, 0x67, 0x00, 0x63, 0x6c, 0x61, 0x6d, 0x70, 0x69, 0x6e, 0x67, 0x00, 0x73, 0x70,
  0x65, 0x63, 0x74, 0x72, 0x61, 0x6c, 0x5f, 0x73, 0x75, 0x62, 0x74, 0x72, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x62, 0x69, 0x74, 0x73, 0x00, 0x09, 0x66, 0x7b, 0x26,
  0x3c, 0xa9, 0x93, 0x9e, 0x4f, 0x23, 0x09, 0x00, 0x01, 0x00, 0x09, 0x00, 0x71, 0x3d, 0x8f, 0x02, 0x00, 0x00, 0x33, 0x03, 0x20, 0x00, 0x71, 0x3d, 0x8f, 0x02, 0x00, 0x00,
  0x0e, 0x00, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x1b, 0x25, 0x01,
]);
/** The same map with num_channels 16 (the 16-channel test's bytes). */
export const SPECTRAL_SUBTRACTION_OPTIONS_16 = Uint8Array.from(SPECTRAL_SUBTRACTION_OPTIONS_32, (b, i) => (i === SPECTRAL_SUBTRACTION_OPTIONS_32.length - 22 ? 0x10 : b));

/** filter_bank_spectral_subtraction_test.cc: one invocation from a zero noise estimate. */
export const SPECTRAL_SUBTRACTION_32 = {
  input: [322, 308, 210, 212, 181, 251, 403, 259, 65, 48, 76, 48, 50, 46, 53, 52, 112, 191, 136, 59, 70, 51, 39, 64, 33, 44, 41, 49, 74, 107, 262, 479],
  output: [310, 296, 202, 204, 174, 241, 387, 249, 63, 47, 73, 47, 49, 45, 51, 50, 108, 184, 131, 57, 68, 49, 38, 62, 32, 43, 40, 48, 72, 103, 252, 460],
  noise: [12, 12, 8, 8, 7, 10, 16, 10, 2, 1, 3, 1, 1, 1, 2, 2, 4, 7, 5, 2, 2, 2, 1, 2, 1, 1, 1, 1, 2, 4, 10, 19],
};
export const SPECTRAL_SUBTRACTION_16 = {
  input: [393, 213, 408, 1, 361, 385, 386, 326, 170, 368, 368, 305, 152, 322, 213, 319],
  output: [378, 205, 392, 1, 347, 370, 371, 313, 164, 354, 354, 293, 146, 310, 205, 307],
  noise: [15, 8, 16, 0, 14, 15, 15, 13, 6, 14, 14, 12, 6, 12, 8, 12],
};

/** pcan_test.cc Mix1Ref1Case (snr_shift 6). */
export const PCAN_MIX = {
  snrShift: 6,
  input: [
    286, 298, 305, 291, 290, 279, 273, 257, 250, 240, 240, 233, 234, 230, 221, 205, 183, 159, 156, 188, 239, 298, 345, 374, 380, 369, 359, 364, 372, 354, 302, 243, 194,
    135, 64, 72, 171, 245, 277, 304,
  ],
  noise: [
    7310, 18308, 7796, 17878, 7413, 17141, 6978, 15789, 6390, 14745, 6135, 14314, 5981, 14130, 5649, 12594, 4677, 9768, 3987, 11550, 6109, 18308, 8819, 22977, 9713, 22670,
    9176, 22363, 9509, 21748, 7719, 14929, 4959, 8294, 1636, 4423, 4371, 15052, 7080, 18677,
  ],
  gainLut: [
    32636, 32633, 32630, -6, 0, -21589, 32624, -12, 0, -21589, 32612, -23, -2, -21589, 32587, -48, 0, -21589, 32539, -96, 0, -21589, 32443, -190, 0, -21589, 32253, -378, 4,
    -21589, 31879, -739, 18, -21589, 31158, -1409, 62, -21589, 29811, -2567, 202, -21589, 27446, -4301, 562, -21589, 23707, -6265, 1230, -21589, 18672, -7458, 1952, -21589,
    13166, -7030, 2212, -21589, 8348, -5342, 1868, -21589, 4874, -3459, 1282, -21589, 2697, -2025, 774, -21589, 1446, -1120, 436, -21589, 762, -596, 232, -21589, 398, -313,
    122, -21589, 207, -164, 64, -21589, 107, -85, 34, -21589, 56, -45, 18, -21589, 29, -22, 8, -21589, 15, -13, 6, -21589, 8, -8, 4, -21589, 4, -2, 0, -21589, 2, -3, 2,
    -21589, 1, 0, 0, -21589, 1, -3, 2, -21589, 0, 0, 0,
  ],
  golden: [
    1301, 836, 1354, 827, 1312, 811, 1263, 779, 1192, 753, 1160, 743, 1140, 738, 1096, 698, 956, 607, 845, 667, 1157, 836, 1461, 912, 1546, 908, 1496, 904, 1527, 895,
    1346, 758, 999, 548, 378, 344, 908, 761, 1274, 843,
  ],
};

/** filter_bank_log_test.cc: (output_scale 1600, correction bits 3) and (32768, 5). */
export const LOG_32 = {
  outputScale: 1600,
  correctionBits: 3,
  input: [29, 21, 29, 40, 19, 11, 13, 23, 13, 11, 25, 17, 5, 4, 46, 14, 17, 14, 20, 14, 10, 10, 15, 11, 17, 12, 15, 16, 19, 18, 6, 2],
  golden: [
    8715, 8198, 8715, 9229, 8038, 7164, 7431, 8344, 7431, 7164, 8477, 7860, 5902, 5545, 9453, 7550, 7860, 7550, 8120, 7550, 7011, 7011, 7660, 7164, 7860, 7303, 7660, 7763,
    8038, 7952, 6194, 4436,
  ],
};
export const LOG_16 = {
  outputScale: 32768,
  correctionBits: 5,
  input: [48, 20, 19, 24, 35, 47, 23, 30, 31, 10, 48, 21, 46, 14, 18, 27],
  golden: [32767, 15121, 13440, 21095, 32767, 32767, 19701, 28407, 29482, 32767, 32767, 16720, 32767, 3434, 11669, 24955],
};

/** delay_test.cc: frames fed in turn (one invocation each) and the frames that come out. */
export const DELAY_CASES = [
  { delay: 3, shape: [8], inputs: [[1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 0, 0, 0, 0, 0, 0]], golden: [[0, 0, 0, 1, 2, 3, 4, 5], [6, 7, 8, 0, 0, 0, 0, 0]] },
  { delay: 5, shape: [3], inputs: [[1, 2, 3], [4, 0, 0], [0, 0, 0]], golden: [[0, 0, 0], [0, 0, 1], [2, 3, 4]] },
  {
    delay: 3,
    shape: [4, 4],
    inputs: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0], new Array<number>(16).fill(0)],
    golden: [[0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 13], [2, 3, 4, 0, 6, 7, 8, 0, 10, 11, 12, 0, 14, 15, 0, 0]],
  },
  {
    delay: 5,
    shape: [4, 4],
    inputs: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0], new Array<number>(16).fill(0), new Array<number>(16).fill(0)],
    golden: [new Array<number>(16).fill(0), [0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 13, 14, 15], [4, 0, 0, 0, 8, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0]],
  },
];

/** overlap_add_test.cc: [1, 3] frames with frame_step 1, one per invocation (int16 and float). */
export const OVERLAP_ADD_INT16 = { frames: [[125, -12, -895], [1000, 65, -212], [63, 71, 52], [1, -17, 32]], golden: [125, 988, -767, -140] };
export const OVERLAP_ADD_FLOAT = { frames: [[12.5, -1.2, -89.5], [100.0, 6.5, -21.2], [6.3, 7.1, 5.2], [0.1, -1.7, 3.2]], golden: [12.5, 98.8, -76.7, -14.0] };

/** stacker_test.cc: (channels, left, right, step) and one frame in, the stacked output. */
export const STACKER_CASES = [
  { options: { num_channels: 3, stacker_left_context: 1, stacker_right_context: 0, stacker_step: 1 }, input: [0x1234, 0x5678, 0x4321], golden: [0x1234, 0x5678, 0x4321, 0x1234, 0x5678, 0x4321] },
  {
    options: { num_channels: 10, stacker_left_context: 1, stacker_right_context: 0, stacker_step: 2 },
    input: [252, 477, 1071, 166, 1022, 312, 1171, 1586, 1491, 145],
    golden: [252, 477, 1071, 166, 1022, 312, 1171, 1586, 1491, 145, 252, 477, 1071, 166, 1022, 312, 1171, 1586, 1491, 145],
  },
];

/**
 * framer_test.cc: (frame_size, frame_step, prefill) and the sample stream `golden`, fed
 * input_size samples per invocation from golden[frame_size - frame_step]; a ready output's
 * frame f equals golden[i + f * frame_step ...] (TestFramerInvoke).
 */
export const FRAMER_CASES = [
  { frameSize: 3, frameStep: 1, prefill: false, inputShape: [1], outputShape: [1, 3], golden: [0x0, 0x0, 0x1234, 0x5678, 0x4321, 0x7777] },
  { frameSize: 5, frameStep: 2, prefill: true, inputShape: [2], outputShape: [1, 5], golden: [0x0, 0x0, 0x0, 0x1010, 0x0202, 0x7070, 0x0606] },
  { frameSize: 5, frameStep: 2, prefill: true, inputShape: [4], outputShape: [2, 5], golden: [0x0, 0x0, 0x0, 0x1010, 0x0202, 0x7070, 0x0606] },
  { frameSize: 5, frameStep: 2, prefill: true, inputShape: [2, 2, 4], outputShape: [2, 2, 2, 5], golden: [0x0, 0x0, 0x0, 0x1010, 0x0202, 0x7070, 0x0606] },
];

/** TestFramerInvoke's schedule: per invocation the input, whether the output is ready, and each ready frame's expected samples. */
export function framerSchedule(c: (typeof FRAMER_CASES)[number]): { input: number[]; ready: boolean; frames: number[][] }[] {
  const inputSize = c.inputShape[c.inputShape.length - 1];
  const outer = c.inputShape.slice(0, -1).reduce((a, b) => a * b, 1);
  const latency = c.frameSize - c.frameStep;
  const frames = c.outputShape[c.outputShape.length - 2];
  const out: { input: number[]; ready: boolean; frames: number[][] }[] = [];
  for (let i = 0; i < c.golden.length - latency; i += inputSize) {
    const row = c.golden.slice(latency + i, latency + i + inputSize);
    const input = Array.from({ length: outer }, () => row).flat();
    const ready = i >= latency || c.prefill;
    out.push({ input, ready, frames: Array.from({ length: frames }, (_, f) => c.golden.slice(i + f * c.frameStep, i + f * c.frameStep + c.frameSize)) });
  }
  return out;
}
