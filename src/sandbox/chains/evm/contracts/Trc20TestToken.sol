// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// USDT as TRON's TRC-20 contract (TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t) behaves, for the TRON stand-in: `transfer` and
/// `transferFrom` are declared to return a bool and never return true (TetherToken's BasicToken has no `return`, so a
/// successful transfer answers 32 zero bytes, as its transaction infos on chain show: only the Transfer log tells it
/// moved), and a blacklisted sender's transfers revert with no reason (a bare `require`). Anyone may mint and blacklist:
/// it is a test faucet.
contract Trc20TestToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public isBlackListed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AddedBlackList(address user);
    event RemovedBlackList(address user);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function addBlackList(address user) external {
        isBlackListed[user] = true;
        emit AddedBlackList(user);
    }

    function removeBlackList(address user) external {
        isBlackListed[user] = false;
        emit RemovedBlackList(user);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    // `false` is what TetherToken's missing `return` answers; written out, as solc warns about an unassigned result.
    function transfer(address to, uint256 amount) external returns (bool) {
        require(!isBlackListed[msg.sender]);
        _move(msg.sender, to, amount);
        return false;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        require(!isBlackListed[from]);
        allowance[from][msg.sender] -= amount; // checked arithmetic: more than allowed reverts
        _move(from, to, amount);
        return false;
    }

    function _move(address from, address to, uint256 amount) private {
        balanceOf[from] -= amount; // checked arithmetic: more than the balance reverts
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
