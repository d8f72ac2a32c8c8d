// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// An exchange's batched withdrawal, in miniature: several token transfers in one transaction, each its own Transfer
/// log, so a gateway that keys payments by transaction alone would count one of them.
contract Batcher {
    error LengthsDiffer();

    /// Moves `amounts[i]` of `token` from the caller to `to[i]`; the caller approves this contract first. A token that
    /// answers nothing (USDT-TRC20's transfer) or false on success is taken at its Transfer log, as gateways do.
    function payAll(address token, address[] calldata to, uint256[] calldata amounts) external {
        if (to.length != amounts.length) revert LengthsDiffer();
        for (uint256 i = 0; i < to.length; i++) {
            (bool ok, ) = token.call(abi.encodeCall(IToken.transferFrom, (msg.sender, to[i], amounts[i])));
            require(ok, "transfer failed");
        }
    }
}
