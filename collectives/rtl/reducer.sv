// The Reducer of the Angara PEGroup, synthesizable. Port contract: docs/RTL.md.
//
// Per (TreeId, ReduceId) slot it keeps the count of contributions received and the partial
// result (up to 16 flits of two 64-bit signed words). Contributions come one at a time as a
// head beat and then their data beats; the Reducer knows which it waits for. A contribution
// with its head accepted in cycle s holds the Reducer for cfg_head_cycles + cfg_flit_cycles *
// flits cycles: the head, the slot read, then one data flit per cfg_flit_cycles. With the last
// expected contribution the combined flits stream out (res_flit_*), and res_valid hands the
// result off in cycle s + cost, the cycle the next head may be accepted.
module reducer (
    input  logic         clk,
    input  logic         rst,              // synchronous, active high
    input  logic [  3:0] cfg_head_cycles,  // 2..15
    input  logic [  3:0] cfg_flit_cycles,  // 1..15

    input  logic         in_valid,
    output logic         in_ready,
    input  logic [  3:0] in_tree,      // header fields: sampled with a head beat
    input  logic [  3:0] in_reduce,
    input  logic [  3:0] in_op,        // bits 1:0 reduction (0 sum, 1 min, 2 max), bit 2 all
    input  logic [  4:0] in_flits,     // data flits, 0..16
    input  logic [  3:0] in_expected,  // contributions the slot waits for, 1..15
    input  logic [127:0] in_data,      // a data beat's flit: word 0 in bits 63:0

    output logic         res_flit_valid,
    output logic [  3:0] res_flit_index,
    output logic [127:0] res_flit,
    output logic         res_valid,   // the hand-off, one cycle
    output logic [  3:0] res_tree,
    output logic [  3:0] res_reduce,
    output logic [  3:0] res_op,
    output logic [  4:0] res_flits,
    output logic [  3:0] res_count,   // contributions combined

    output logic [511:0] issued,       // results handed off per tree, 32 bits each, tree 0 lowest
    output logic         err_mismatch  // one cycle: a contribution disagreed on op or flits
);

  typedef enum logic [1:0] {
    IDLE,
    LOOKUP,
    DATA
  } state_t;

  state_t state;
  logic [3:0] timer;  // cycles left in the current lookup or data beat
  logic [7:0] slot;  // {tree, reduce} of the contribution in progress
  logic [3:0] op;
  logic [4:0] flits;
  logic [3:0] expected;
  logic [3:0] beat;
  logic [3:0] had;  // contributions the slot had when this one came
  logic mismatch;

  logic [255:0][3:0] slot_count;  // packed, so reset clears it at once
  logic [3:0] slot_op[256];
  logic [4:0] slot_flits[256];
  logic [127:0] mem[4096];  // {slot, flit}
  logic [15:0][31:0] issued_count;

  wire last = had + 4'd1 == expected;
  wire [11:0] addr = {slot, beat};

  function automatic logic [63:0] combine(input logic [1:0] fn, input logic [63:0] a,
                                          input logic [63:0] b);
    logic signed [63:0] sa = a;
    logic signed [63:0] sb = b;
    unique case (fn)
      2'd1: combine = (sa < sb) ? a : b;  // min
      2'd2: combine = (sa > sb) ? a : b;  // max
      default: combine = a + b;  // sum wraps, as the adder
    endcase
  endfunction

  wire [127:0] stored = mem[addr];
  wire [127:0] combined = (had == 4'd0) ? in_data :
      {combine(op[1:0], stored[127:64], in_data[127:64]),
       combine(op[1:0], stored[63:0], in_data[63:0])};

  // Ready for a head when idle, for a data beat in the last cycle of its window.
  assign in_ready = state == IDLE || (state == DATA && timer == 4'd1);

  assign issued = issued_count;

  // The contribution is done after its last beat (or its lookup, without data).
  task automatic finish();
    state <= IDLE;
    if (!mismatch) begin
      slot_count[slot] <= last ? 4'd0 : had + 4'd1;
      if (had == 4'd0) begin
        slot_op[slot] <= op;
        slot_flits[slot] <= flits;
      end
      if (last) begin
        res_valid <= 1'b1;
        res_tree <= slot[7:4];
        res_reduce <= slot[3:0];
        res_op <= op;
        res_flits <= flits;
        res_count <= expected;
        issued_count[slot[7:4]] <= issued_count[slot[7:4]] + 32'd1;
      end
    end
  endtask

  task automatic start_data();
    beat <= 4'd0;
    if (flits == 5'd0) finish();
    else begin
      state <= DATA;
      timer <= cfg_flit_cycles;
    end
  endtask

  always_ff @(posedge clk) begin
    res_valid <= 1'b0;
    res_flit_valid <= 1'b0;
    err_mismatch <= 1'b0;
    if (rst) begin
      state <= IDLE;
      slot_count <= '0;
      issued_count <= '0;
    end else begin
      unique case (state)
        IDLE:
        if (in_valid && in_ready) begin
          slot <= {in_tree, in_reduce};
          op <= in_op;
          flits <= in_flits;
          expected <= in_expected;
          had <= slot_count[{in_tree, in_reduce}];
          mismatch <= slot_count[{in_tree, in_reduce}] != 4'd0 &&
              (slot_op[{in_tree, in_reduce}] != in_op ||
               slot_flits[{in_tree, in_reduce}] != in_flits);
          state <= LOOKUP;
          timer <= cfg_head_cycles;
        end
        LOOKUP: begin
          if (mismatch) err_mismatch <= timer == cfg_head_cycles;
          if (timer <= 4'd2) start_data();
          else timer <= timer - 4'd1;
        end
        DATA:
        if (timer != 4'd1) timer <= timer - 4'd1;
        else if (in_valid && in_ready) begin
          if (!mismatch) mem[addr] <= combined;
          if (last && !mismatch) begin
            res_flit_valid <= 1'b1;
            res_flit_index <= beat;
            res_flit <= combined;
          end
          if ({1'b0, beat} + 5'd1 == flits) finish();
          else begin
            beat <= beat + 4'd1;
            timer <= cfg_flit_cycles;
          end
        end
        default: state <= IDLE;
      endcase
    end
  end

endmodule
